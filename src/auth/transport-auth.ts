import { type AuthProvider, ClientCredentialsProvider, type FetchLike } from '@modelcontextprotocol/client';
import type { HttpServerConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { ServerAuthorization, type ServerAuthorizationOptions } from './server-authorization.js';

/** What an HTTP transport needs for OAuth: its `authProvider`, and a `fetch` for step-up. */
export interface TransportAuth {
  authProvider(): AuthProvider | ClientCredentialsProvider;
  fetch?(base?: FetchLike): FetchLike;
  /** The interactive flow, for servers a person authorizes. */
  readonly authorization?: ServerAuthorization;
}

/**
 * OAuth for one server: the client-credentials grant through the SDK's
 * `ClientCredentialsProvider` (tokens kept in memory, fetched again on a 401), or a
 * {@link ServerAuthorization} over the vault for everything else.
 */
export function createTransportAuth(
  config: HttpServerConfig,
  options: Omit<ServerAuthorizationOptions, 'serverUrl' | 'config'>,
): TransportAuth {
  const oauth = config.auth?.type === 'oauth' ? config.auth : undefined;
  if (oauth?.grant === 'client_credentials') {
    const { clientId, clientSecret } = oauth;
    if (!clientId || !clientSecret) {
      throw new McpToolsError(
        'CONFIG_INVALID',
        `server "${options.server}": field "auth": the client_credentials grant needs clientId and clientSecret`,
      );
    }
    // One provider per server for the hub's lifetime: its token outlives reconnects.
    const provider = new ClientCredentialsProvider({
      clientId,
      clientSecret,
      clientName: 'mcptools',
      ...(oauth.scopes?.length ? { scope: oauth.scopes.join(' ') } : {}),
    });
    return { authProvider: () => provider };
  }
  const authorization = new ServerAuthorization({ ...options, serverUrl: config.url, config: oauth });
  return {
    authorization,
    authProvider: () => authorization.authProvider(),
    fetch: (base) => authorization.fetch(base),
  };
}
