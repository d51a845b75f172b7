import type { McpToolsConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { FileTokenStore } from './file-token-store.js';
import { oauthApplies } from './oauth-applies.js';
import type { AuthorizationStart, AuthorizationUrlHandler } from './server-authorization.js';
import type { TokenStore } from './token-store.js';
import { createTransportAuth, type TransportAuth } from './transport-auth.js';

/** The OAuth options of `loadMcpServers`. */
export interface OAuthHostOptions {
  /**
   * Receives each authorization URL a person must open. With it, a server that needs OAuth
   * starts the flow by itself (the CLI opens a browser; a headless host or a test follows the
   * URL); without it, the server waits in `auth_required` for `mcptools auth SERVER`,
   * `provider.authorize(server)` or the `mcp_auth` tool.
   */
  onAuthorizationUrl?: AuthorizationUrlHandler;
  /** Where tokens live. Default: the vault file under the user's config directory. */
  tokenStore?: TokenStore;
}

/** What the hub is told when a server's authorization changes. */
export interface AuthorizationListeners {
  authRequired(server: string, error: McpToolsError): void;
  authorized(server: string): void;
}

/**
 * The OAuth side of the hub: one {@link TransportAuth} per HTTP server without static
 * credentials, all sharing one token store, and `authorize(server)` for the CLI and `mcp_auth`.
 */
export class ServerAuthorizations {
  readonly #auth = new Map<string, TransportAuth>();
  readonly #store: TokenStore;

  constructor(config: McpToolsConfig, options: OAuthHostOptions, listeners: AuthorizationListeners) {
    this.#store = options.tokenStore ?? new FileTokenStore();
    for (const [name, server] of Object.entries(config.servers)) {
      if (!oauthApplies(server) || server.enabled === false) continue;
      this.#auth.set(
        name,
        createTransportAuth(server, {
          server: name,
          store: this.#store,
          ...(options.onAuthorizationUrl ? { onAuthorizationUrl: options.onAuthorizationUrl } : {}),
          listeners: {
            authRequired: (error) => listeners.authRequired(name, error),
            authorized: () => listeners.authorized(name),
          },
        }),
      );
    }
  }

  /** The token store every server's OAuth shares. */
  get store(): TokenStore {
    return this.#store;
  }

  /** The transport's OAuth for `server`, if it uses OAuth. */
  for(server: string): TransportAuth | undefined {
    return this.#auth.get(server);
  }

  /** Servers a person can authorize (every OAuth server but client-credentials ones). */
  interactiveServers(): string[] {
    return [...this.#auth].filter(([, auth]) => auth.authorization !== undefined).map(([name]) => name);
  }

  /** Whether a sign-in for `server` is waiting for a person. */
  pending(server: string): boolean {
    return this.#auth.get(server)?.authorization?.pending ?? false;
  }

  /** The URL a pending sign-in for `server` waits on. */
  pendingUrl(server: string): string | undefined {
    return this.#auth.get(server)?.authorization?.pendingUrl;
  }

  /** Starts (or joins) the sign-in of `server`; see `ServerAuthorization.authorize`. */
  authorize(
    server: string,
    options: { force?: boolean; onAuthorizationUrl?: AuthorizationUrlHandler } = {},
  ): Promise<AuthorizationStart> {
    const authorization = this.#auth.get(server)?.authorization;
    if (authorization === undefined) {
      return Promise.reject(
        new McpToolsError(
          'INVALID_ARGUMENTS',
          `server "${server}" does not use OAuth (a stdio server, static credentials, or the client-credentials grant)`,
        ),
      );
    }
    return authorization.authorize(options);
  }
}
