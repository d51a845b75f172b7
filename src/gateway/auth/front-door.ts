import type { McpToolsConfig } from '../../config/config-types.js';
import type { GatewayOAuthConfig } from '../../config/gateway-auth-types.js';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { GatewayOAuth } from './gateway-oauth.js';
import { pairTokens, StaticTokens } from './static-tokens.js';

/** The gateway's options the front door's credentials come from (see `createGateway`'s options). */
export interface FrontDoorOptions {
  token?: string | undefined;
  ownerToken?: string | undefined;
  config?: Pick<McpToolsConfig, 'gateway'> | undefined;
  auth?: GatewayOAuthConfig | undefined;
}

/** The shortest static token accepted in `gateway.tokens`: shorter ones are guessable. */
const MIN_TOKEN_CHARS = 16;

/**
 * The front door's credentials from the gateway's options: the static tokens (`token` and
 * `ownerToken`, then `gateway.tokens`, all named) and, with `gateway.auth`, the OAuth resource
 * server. Neither when nothing is configured (loopback without a token).
 */
export function frontDoor(options: FrontDoorOptions): {
  tokens?: StaticTokens;
  oauth?: GatewayOAuth;
} {
  const gateway = options.config?.gateway;
  for (const [name, entry] of Object.entries(gateway?.tokens ?? {})) {
    if (entry.token.length < MIN_TOKEN_CHARS)
      throw new McpToolsError(
        'CONFIG_INVALID',
        `gateway.tokens.${name}.token: must be at least ${MIN_TOKEN_CHARS} characters (is its variable set?)`,
        { recoverable: false },
      );
    refusePlaceholder(entry.token, `gateway.tokens.${name}.token`);
  }
  for (const [field, value] of [
    ['token', options.token],
    ['ownerToken', options.ownerToken],
  ] as const)
    if (value !== undefined) refusePlaceholder(value, field);
  const pair = new StaticTokens(pairTokens(options.token, options.ownerToken), { digestPrincipals: true });
  const named = new StaticTokens(gateway?.tokens ?? {});
  const tokens =
    named.size === 0
      ? pair.size === 0
        ? undefined
        : pair
      : pair.size === 0
        ? named
        : StaticTokens.merge(pair, named);
  const auth = options.auth ?? gateway?.auth;
  if (auth?.introspection !== undefined)
    for (const key of ['clientId', 'clientSecret'] as const)
      refusePlaceholder(auth.introspection[key], `gateway.auth.introspection.${key}`);
  if (auth?.login?.clientSecret !== undefined)
    refusePlaceholder(auth.login.clientSecret, 'gateway.auth.login.clientSecret');
  let oauth: GatewayOAuth | undefined;
  try {
    oauth = auth === undefined ? undefined : new GatewayOAuth(auth);
  } catch (error) {
    // The SDK refuses an issuer that is not HTTPS outside loopback, with a fragment or a query.
    throw new McpToolsError('CONFIG_INVALID', `gateway.auth.issuer: ${(error as Error).message}`, {
      recoverable: false,
    });
  }
  return { ...(tokens === undefined ? {} : { tokens }), ...(oauth === undefined ? {} : { oauth }) };
}

/**
 * Refuses a credential still holding `${`: a configuration that reached the gateway without
 * `${VAR}` interpolation (an object given to `createGateway` as written) would otherwise compare
 * or send the placeholder text, which anyone who read the file knows.
 */
function refusePlaceholder(value: string, field: string): void {
  if (value.includes('${'))
    throw new McpToolsError(
      'CONFIG_INVALID',
      `${field}: holds a \${…} placeholder (load the configuration with loadConfig, which reads the environment)`,
      { recoverable: false },
    );
}
