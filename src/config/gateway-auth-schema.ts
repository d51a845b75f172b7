import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

const nonEmpty = lazySchema(() => z.string().min(1, 'must not be empty'));

/** `who` of an access rule, and `gateway.auth.owner`: principals, scopes, claims. */
export const callerSelectorSchema = lazySchema(() =>
  z.strictObject({
    principals: z.array(nonEmpty()).optional(),
    scopes: z.array(nonEmpty()).optional(),
    claims: z.record(nonEmpty(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  }),
);

const httpUrl = lazySchema(() => z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }));

/** `gateway.auth`: the gateway as an OAuth 2.1 resource server. */
export const gatewayOAuthSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal('oauth'),
    issuer: httpUrl(),
    audience: nonEmpty(),
    jwksUrl: httpUrl().optional(),
    introspection: z
      .strictObject({
        url: httpUrl().optional(),
        clientId: nonEmpty(),
        clientSecret: nonEmpty(),
        maxConcurrent: z.number().int().min(1).max(256).optional(),
        jwts: z.boolean().optional(),
      })
      .optional(),
    requiredScopes: z.array(nonEmpty()).optional(),
    scopesSupported: z.array(nonEmpty()).optional(),
    clockToleranceSeconds: z.number().min(0).max(300).optional(),
    jwksCooldownSeconds: z.number().min(0).max(3600).optional(),
    tokenCacheSeconds: z.number().min(0).max(3600).optional(),
    failureCacheSeconds: z.number().min(0).max(300).optional(),
    owner: callerSelectorSchema().optional(),
    login: z
      .strictObject({
        clientId: nonEmpty(),
        clientSecret: nonEmpty().optional(),
        flowSeconds: z.number().int().min(1).max(3600).optional(),
        sessionSeconds: z.number().int().min(1).max(86_400).optional(),
      })
      .optional(),
  }),
);

/** `gateway.tokens`: named static bearer tokens. */
export const gatewayTokensSchema = lazySchema(() =>
  z.record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'token names may use letters, digits, ".", "_" and "-" only'),
    z.strictObject({
      // Checked for length once `${VAR}` is read (the gateway refuses one under 16 characters).
      token: nonEmpty(),
      principal: nonEmpty().optional(),
      profile: nonEmpty().optional(),
      owner: z.boolean().optional(),
      scopes: z.array(nonEmpty()).optional(),
      claims: z.record(nonEmpty(), z.unknown()).optional(),
    }),
  ),
);

/** `gateway.access`: rules that hide tools and servers from callers who do not match. */
export const accessRulesSchema = lazySchema(() =>
  z.array(
    z.strictObject({
      tools: z.array(nonEmpty()).optional(),
      servers: z.array(nonEmpty()).optional(),
      who: callerSelectorSchema(),
    }),
  ),
);
