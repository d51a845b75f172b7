import { z } from 'zod';
import { parseAllowEntry } from './allow-entry.js';
import type { ProtocolMode } from './config-types.js';
import { clampDurationMs } from './duration.js';
import {
  accessRulesSchema,
  callerSelectorSchema,
  gatewayOAuthSchema,
  gatewayTokensSchema,
} from './gateway-auth-schema.js';
import { gatewayLimitsSchema } from './gateway-limits-schema.js';
import { lazySchema } from './lazy-schema.js';
import { pinsSchema } from './pins-schema.js';
import { policiesSchema, toolOverridesSchema } from './policies-schema.js';
import { ACCEPTED_PROTOCOL_VALUES } from './protocol-mode.js';

/** The zod schema of a duration field in a configuration file: positive, clamped to a timer's range. */
const durationSchema = lazySchema(() =>
  z
    .number()
    .positive('must be a positive number of milliseconds')
    .transform((ms) => clampDurationMs(Math.ceil(ms))),
);

/** The zod schema of a duration field that may be 0. */
const optionalDelaySchema = lazySchema(() =>
  z
    .number()
    .nonnegative('must be 0 or more milliseconds')
    .transform((ms) => clampDurationMs(Math.ceil(ms))),
);

const toolFilterSchema = lazySchema(() =>
  z.strictObject({
    allow: z.array(z.string().min(1, 'must not be empty')).optional(),
    deny: z.array(z.string().min(1, 'must not be empty')).optional(),
  }),
);

/** Settings every server entry may carry (see `ServerCommon`). */
const serverCommonShape = lazySchema(() => ({
  enabled: z.boolean().optional(),
  connectTimeoutMs: durationSchema().optional(),
  callTimeoutMs: durationSchema().optional(),
  tools: toolFilterSchema().optional(),
  prefix: z.string().min(1, 'must not be empty').optional(),
  // Typed as the modes: a deprecated name read here is replaced by its mode before the reader returns.
  protocol: z.enum(ACCEPTED_PROTOCOL_VALUES as [ProtocolMode, ...ProtocolMode[]]).optional(),
}));

const stringMapSchema = lazySchema(() => z.record(z.string(), z.string()));

// RFC 9110 token characters; a bad name or a line break would fail (or inject) at request time.
const headersSchema = lazySchema(() =>
  z.record(
    z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'is not a valid HTTP header name'),
    z.string().refine((value) => !/[\r\n\0]/.test(value), 'must not contain line breaks'),
  ),
);

/** An absolute path a box grants; a relative one would resolve against wherever the gateway runs. */
const grantedPathSchema = lazySchema(() =>
  z
    .string()
    .min(1, 'must not be empty')
    .refine((path) => path.startsWith('/'), 'must be an absolute path'),
);

/** An egress allowlist entry: `host:port`, a `*.` wildcard, an IPv4 or bracketed IPv6 address. */
const allowEntrySchema = lazySchema(() =>
  z
    .string()
    .refine(
      (entry) => parseAllowEntry(entry) !== undefined,
      'must be host:port (a host name, *.domain, an IPv4 address or [IPv6]), e.g. api.example.com:443',
    ),
);

/** `sandbox`: `true`, `false` or the grants of a box (see `SandboxSettings`). */
export const sandboxSchema = lazySchema(() =>
  z.union([
    z.boolean(),
    z
      .strictObject({
        network: z
          .union([
            z.boolean(),
            z.enum(['all', 'none']),
            z.strictObject({ allow: z.array(allowEntrySchema()).min(1, 'must name at least one host:port') }),
          ])
          .optional(),
        read: z.array(grantedPathSchema()).optional(),
        write: z.array(grantedPathSchema()).optional(),
        env: z
          .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be environment variable names'))
          .optional(),
        maxOpenFiles: z.number().int().min(16, 'must be at least 16').optional(),
        maxMemoryBytes: z
          .number()
          .int()
          .min(16 * 1024 * 1024, 'must be at least 16 MiB (16777216)')
          .optional(),
        maxProcesses: z.number().int().min(8, 'must be at least 8').optional(),
        maxCpus: z.number().min(0.01, 'must be at least 0.01').max(1024, 'must be at most 1024').optional(),
        maxCpuSeconds: z.number().int().min(1, 'must be at least 1').optional(),
        image: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/, 'must be an image reference (name[:tag][@digest])')
          .optional(),
        engine: z.enum(['docker', 'podman']).optional(),
      })
      .refine((box) => box.engine === undefined || box.image !== undefined, {
        path: ['engine'],
        message: 'needs "image" (the engine runs an image)',
      })
      .refine((box) => box.image === undefined || typeof box.network !== 'object', {
        path: ['network'],
        message: 'with "image" must be "none" or "all" (an allowlist needs the bubblewrap box)',
      }),
  ]),
);

/** A stdio server entry of `mcptools.json`, after `${VAR}` interpolation. */
export const stdioServerSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal('stdio'),
    command: z.string().min(1, 'must not be empty'),
    args: z.array(z.string()).optional(),
    env: stringMapSchema().optional(),
    cwd: z.string().min(1, 'must not be empty').optional(),
    sandbox: sandboxSchema().optional(),
    trusted: z.boolean().optional(),
    ...serverCommonShape(),
  }),
);

const httpAuthSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('bearer'), token: z.string().min(1, 'must not be empty') }),
    z.strictObject({
      type: z.literal('api-key'),
      key: z.string().min(1, 'must not be empty'),
      header: z.string().min(1, 'must not be empty').optional(),
    }),
    z.strictObject({
      type: z.literal('oauth'),
      clientId: z.string().min(1, 'must not be empty').optional(),
      clientSecret: z.string().min(1, 'must not be empty').optional(),
      scopes: z.array(z.string().min(1, 'must not be empty')).optional(),
      grant: z.enum(['authorization_code', 'client_credentials']).optional(),
      clientMetadataUrl: z
        .url({ protocol: /^https$/, error: 'Invalid URL (expected an https: URL)' })
        .refine(
          (value) => new URL(value).pathname !== '/',
          'must have a path (a client ID metadata document)',
        )
        .optional(),
      redirectPort: z.number().int().min(1).max(65535).optional(),
      perUser: z.boolean().optional(),
    }),
    z.strictObject({
      type: z.literal('tokenExchange'),
      tokenEndpoint: z
        .url({ protocol: /^https?$/, error: 'Invalid URL (expected an http: or https: URL)' })
        .optional(),
      issuer: z
        .url({ protocol: /^https?$/, error: 'Invalid URL (expected an http: or https: URL)' })
        .optional(),
      clientId: z.string().min(1, 'must not be empty'),
      clientSecret: z.string().min(1, 'must not be empty'),
      audience: z.string().min(1, 'must not be empty'),
      scopes: z.array(z.string().min(1, 'must not be empty')).optional(),
    }),
  ]),
);

/** An HTTP server entry of `mcptools.json` (`streamable-http`, `sse`, or `http` = try both). */
export const httpServerSchema = lazySchema(() =>
  z.strictObject({
    type: z.enum(['streamable-http', 'sse', 'http']),
    url: z.url({ protocol: /^https?$/, error: 'Invalid URL (expected an http: or https: URL)' }),
    headers: headersSchema().optional(),
    auth: httpAuthSchema().optional(),
    ...serverCommonShape(),
  }),
);

/** `router.semanticSearch`: an OpenAI-compatible embeddings endpoint for `tool_index`. */
export const semanticSearchSchema = lazySchema(() =>
  z.strictObject({
    url: z.url({ protocol: /^https?$/, error: 'Invalid URL (expected an http: or https: URL)' }),
    model: z.string().min(1, 'must not be empty'),
    apiKey: z.string().min(1, 'must not be empty').optional(),
    headers: headersSchema().optional(),
    weight: z.number().min(0).max(1).optional(),
    dimensions: z.number().int().positive().optional(),
    queryPrefix: z.string().optional(),
    documentPrefix: z.string().optional(),
    batchSize: z.number().int().positive().optional(),
    timeoutMs: durationSchema().optional(),
    waitMs: optionalDelaySchema().optional(),
    cacheDir: z.string().min(1, 'must not be empty').optional(),
  }),
);

const gatewayModeSchema = lazySchema(() => z.enum(['full', 'router', 'hybrid']));

/** The longest tool name a gateway profile serves: room for a server part, a separator and a tool part. */
const maxNameLengthSchema = lazySchema(() =>
  z.number().int().min(16, 'must be at least 16').max(64, 'must be at most 64'),
);

/** What `/mcp` and each named profile serve: pinned servers, filters, names, code mode, overrides. */
const servedViewShape = lazySchema(() => ({
  pin: z.array(z.string().min(1, 'must not be empty')).optional(),
  tools: toolFilterSchema().optional(),
  servers: toolFilterSchema().optional(),
  maxNameLength: maxNameLengthSchema().optional(),
  codeMode: z.boolean().optional(),
  overrides: toolOverridesSchema().optional(),
}));

/** One named gateway profile, served at `/mcp/<name>`. */
const gatewayProfileSchema = lazySchema(() =>
  z.strictObject({
    mode: gatewayModeSchema().optional(),
    who: callerSelectorSchema().optional(),
    ...servedViewShape(),
  }),
);

/** `gateway`: the default mode and pins of `/mcp`, and named profiles. */
export const gatewaySchema = lazySchema(() =>
  z.strictObject({
    mode: gatewayModeSchema().optional(),
    who: callerSelectorSchema().optional(),
    auth: gatewayOAuthSchema().optional(),
    tokens: gatewayTokensSchema().optional(),
    access: accessRulesSchema().optional(),
    limits: gatewayLimitsSchema().optional(),
    sandbox: sandboxSchema().optional(),
    listWaitMs: optionalDelaySchema().optional(),
    ...servedViewShape(),
    serverEndpoints: z.boolean().optional(),
    profiles: z
      .record(
        z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'profile names may use letters, digits, "_" and "-" only'),
        gatewayProfileSchema(),
      )
      .optional(),
  }),
);

/** `telemetry`: OpenTelemetry traces and metrics of `mcptools serve` (see docs/telemetry.md). */
export const telemetrySchema = lazySchema(() =>
  z.strictObject({
    serviceName: z.string().min(1, 'must not be empty').optional(),
    endpoint: z.string().url('must be an http(s) URL').optional(),
    traces: z.boolean().optional(),
    metrics: z.boolean().optional(),
    metricsAccess: z.enum(['owners', 'callers']).optional(),
    sampleRatio: z.number().min(0).max(1).optional(),
  }),
);

/**
 * The top level of `mcptools.json`. Server entries are checked one by one afterwards
 * ({@link stdioServerSchema}, {@link httpServerSchema}) so that each error names its server.
 */
export const mcpToolsFileSchema = lazySchema(() =>
  z.strictObject({
    $schema: z.string().optional(),
    servers: z.record(z.string(), z.unknown()),
    namespace: z
      .strictObject({
        separator: z.string().min(1, 'must not be empty').optional(),
        maxLength: z.number().int().min(8).max(1024).optional(),
      })
      .optional(),
    tools: toolFilterSchema().optional(),
    router: z
      .strictObject({
        listMaxResources: z.number().int().positive().optional(),
        readMaxBytes: z.number().int().positive().optional(),
        toolIndexMaxBytes: z.number().int().positive().optional(),
        perServerResourceTools: z.boolean().optional(),
        catalogTools: z.boolean().optional(),
        semanticSearch: semanticSearchSchema().optional(),
        codeMode: z
          .union([
            z.boolean(),
            z.strictObject({
              enabled: z.boolean().optional(),
              memoryBytes: z.number().int().positive().optional(),
              stackBytes: z.number().int().positive().optional(),
              timeoutMs: durationSchema().optional(),
              maxCalls: z.number().int().positive().optional(),
              maxConcurrentCalls: z.number().int().positive().optional(),
              maxOutputBytes: z.number().int().positive().optional(),
            }),
          ])
          .optional(),
      })
      .optional(),
    plugins: z
      .array(
        z.union([
          z.string().min(1, 'must not be empty'),
          z.strictObject({
            spec: z.string().min(1, 'must not be empty'),
            config: z.record(z.string(), z.unknown()).optional(),
            enabled: z.boolean().optional(),
            allow: z.array(z.string()).optional(),
            deny: z.array(z.string()).optional(),
          }),
        ]),
      )
      .optional(),
    maxResultChars: z.number().int().positive().optional(),
    maxResponseBytes: z.number().int().positive().optional(),
    maxArgumentBytes: z.number().int().positive().optional(),
    gateway: gatewaySchema().optional(),
    telemetry: telemetrySchema().optional(),
    policies: policiesSchema().optional(),
    pins: pinsSchema().optional(),
    protocol: serverCommonShape().protocol,
    workspaceDir: z.string().min(1, 'must not be empty').optional(),
    sandbox: sandboxSchema().optional(),
    registries: z
      .array(
        z.strictObject({
          url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
          headers: z.record(z.string(), z.string()).optional(),
        }),
      )
      .optional(),
  }),
);
