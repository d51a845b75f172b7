import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { signInRequiredError } from '../auth/auth-required-error.js';
import { principalVaultKey } from '../auth/principal-vault-key.js';
import {
  type AuthorizationStart,
  type RedirectReceiver,
  ServerAuthorization,
} from '../auth/server-authorization.js';
import { TokenExchange } from '../auth/token-exchange.js';
import type { TokenStore } from '../auth/token-store.js';
import type { TransportAuth } from '../auth/transport-auth.js';
import type { HttpServerConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { Caller } from '../tool/call-context.js';
import type { ConnectionConfig } from './in-process-server.js';
import { McpConnection, type McpConnectionOptions } from './mcp-connection.js';

/** Settings of {@link PrincipalConnections}. */
export interface PrincipalConnectionsOptions {
  /** The hub's connection options; listeners are replaced (a caller's connection tells the hub only its tools). */
  connectionOptions: McpConnectionOptions;
  connectTimeoutMs(server: string): number;
  /** The vault: each principal's entry under {@link principalVaultKey}. */
  store: TokenStore;
  /** Receives the redirects of callers signing in (the gateway's `/oauth/callback`). */
  redirect: RedirectReceiver;
  /** A caller's connection that served no call for this long is closed. Default 5 minutes. */
  idleMs?: number;
  /** The tools a caller's connection listed (the server's catalog, see docs/identity.md). */
  listed(connection: McpConnection, tools: McpToolDefinition[]): void;
  warn(message: string, server: string): void;
  /** The `route` every connection of `server` gets: a caller's connection routes calls too (see the hub). */
  routeOf(server: string): McpConnection['route'];
  /**
   * The caller's own OAuth access token (the subject of a token exchange, found by the caller's
   * `tokenDigest`), while it is valid; absent when the gateway keeps no access tokens.
   */
  subjectToken?: (caller: Caller) => string | undefined;
}

interface Entry {
  connection: McpConnection;
  /** Per-user OAuth: this principal's sign-in. */
  authorization?: ServerAuthorization;
  /** Token exchange: the subject token of this entry (the token its digest names). */
  subject?: () => string | undefined;
  starting?: Promise<void>;
  timer?: NodeJS.Timeout;
}

const DEFAULT_IDLE_MS = 5 * 60_000;

/** Whether `config` makes each gateway caller use their own upstream credentials. */
export function usesCallerCredentials(config: ConnectionConfig): config is HttpServerConfig {
  if (config.type === 'stdio' || config.type === 'in-process' || config.enabled === false) return false;
  return (
    (config.auth?.type === 'oauth' &&
      config.auth.perUser === true &&
      config.auth.grant !== 'client_credentials') ||
    config.auth?.type === 'tokenExchange'
  );
}

/**
 * The upstream connections of gateway callers to servers that take each caller's own
 * credentials: per-user OAuth (`auth: { type: "oauth", perUser: true }`: each principal signs in,
 * their tokens live in the vault under their principal) and RFC 8693 token exchange. One
 * connection per principal and server, opened at the principal's first call and closed when idle.
 */
export class PrincipalConnections {
  readonly #options: PrincipalConnectionsOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #exchanges = new Map<string, TokenExchange>();
  readonly #connectionOptions: McpConnectionOptions;
  #closed = false;

  constructor(options: PrincipalConnectionsOptions) {
    this.#options = options;
    const quiet = () => undefined;
    this.#connectionOptions = {
      ...options.connectionOptions,
      // Nobody waits on a caller's connection between calls: the next call reconnects it.
      reconnect: { ...options.connectionOptions.reconnect, enabled: false },
      listeners: {
        connected: (connection, tools) => options.listed(connection, tools),
        toolsChanged: (connection, tools) => options.listed(connection, tools),
        stateChanged: quiet,
        warning: (message, connection) => options.warn(message, connection.name),
        notification: quiet,
        wantsNotifications: () => false,
      },
    };
  }

  /** `caller`'s connection to `server`, connected; or the error the call gets (sign-in needed, with the caller's URL). */
  async connection(
    server: string,
    config: HttpServerConfig,
    caller: Caller,
    options: { signIn?: boolean } = {},
  ): Promise<McpConnection> {
    if (this.#closed) throw new McpToolsError('CONNECTION_FAILED', 'the hub is closed');
    const entry = this.#entry(server, config, caller);
    const subjectToken = this.#options.subjectToken;
    if (subjectToken !== undefined) entry.subject = () => subjectToken(caller);
    if (entry.connection.client !== undefined) return entry.connection;
    if (entry.authorization !== undefined) {
      const stored = await entry.authorization.provider.entry(true);
      if (stored?.tokens === undefined)
        throw options.signIn === false
          ? signInRequiredError(server, undefined)
          : await this.#signIn(server, entry.authorization);
    }
    entry.starting ??= entry.connection.start().finally(() => {
      entry.starting = undefined;
    });
    await entry.starting;
    if (entry.connection.client !== undefined) return entry.connection;
    if (entry.authorization !== undefined && entry.connection.state === 'auth_required')
      throw options.signIn === false
        ? signInRequiredError(server, undefined)
        : await this.#signIn(server, entry.authorization);
    throw entry.connection.unavailableError();
  }

  /** Starts (or joins) `principal`'s sign-in to `server`: the URL is theirs alone. */
  authorize(server: string, config: HttpServerConfig, caller: Caller): Promise<AuthorizationStart> {
    const authorization = this.#entry(server, config, caller).authorization;
    if (authorization === undefined)
      return Promise.reject(
        new McpToolsError(
          'INVALID_ARGUMENTS',
          `server "${server}" uses token exchange: there is nothing to sign in`,
        ),
      );
    return authorization.authorize();
  }

  /** The URL `principal`'s sign-in to `server` waits on, if one is under way. */
  pendingUrl(server: string, principal: string): string | undefined {
    return this.#entries.get(key(server, principal))?.authorization?.pendingUrl;
  }

  /** Whether `principal` holds tokens for `server` (signed in; they may still have expired). */
  async signedIn(server: string, config: HttpServerConfig, caller: Caller): Promise<boolean> {
    const authorization = this.#entry(server, config, caller).authorization;
    if (authorization === undefined) return true;
    return (await authorization.provider.entry(true).catch(() => undefined))?.tokens !== undefined;
  }

  /** Closes every caller's connection to `server` (it was removed or reconfigured), or all. */
  async closeServer(server?: string): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [name, entry] of this.#entries) {
      if (server !== undefined && entry.connection.name !== server) continue;
      clearTimeout(entry.timer);
      this.#entries.delete(name);
      closing.push(entry.connection.close());
    }
    if (server !== undefined) this.#exchanges.delete(server);
    await Promise.allSettled(closing);
  }

  /** Closes every connection. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.closeServer();
  }

  async #signIn(server: string, authorization: ServerAuthorization): Promise<McpToolsError> {
    try {
      const start = await authorization.authorize();
      // A refresh sufficed: the call can be tried again at once.
      if (start.status === 'authorized')
        return signInRequiredError(server, undefined, 'signed in again: retry');
      return signInRequiredError(server, start.url);
    } catch (error) {
      return signInRequiredError(server, undefined, error instanceof Error ? error.message : String(error));
    }
  }

  #entry(server: string, config: HttpServerConfig, caller: Caller): Entry {
    // A sign-in is the principal's whatever token they came with; an exchange depends on the token's scopes.
    const name = key(server, caller.principal, config.auth?.type === 'tokenExchange' ? caller : undefined);
    let entry = this.#entries.get(name);
    if (entry !== undefined) {
      this.#touch(name, entry);
      return entry;
    }
    const settings = { connectTimeoutMs: this.#options.connectTimeoutMs(server) };
    const made: Partial<Entry> = {};
    let auth: TransportAuth;
    if (config.auth?.type === 'tokenExchange') {
      let exchange = this.#exchanges.get(server);
      if (exchange === undefined) {
        exchange = new TokenExchange(server, config.auth);
        this.#exchanges.set(server, exchange);
      }
      auth = exchangeAuth(server, exchange, () => made.subject?.());
    } else {
      const authorization = new ServerAuthorization({
        server,
        serverUrl: config.url,
        config: config.auth?.type === 'oauth' ? config.auth : undefined,
        store: this.#options.store,
        vaultKey: principalVaultKey(caller.principal, config.url),
        // The flow is the principal's: its redirect completes only for them.
        redirect: (state) => this.#options.redirect(state, caller.principal),
        listeners: {
          authRequired: (error) => made.connection?.requireAuthorization(error),
          // Signed in: connect now, so that the catalog is there before the first call.
          authorized: () => {
            if (this.#closed || this.#entries.get(name) !== made) return;
            const entry = made as Entry;
            this.#touch(name, entry);
            entry.starting ??= entry.connection.start().finally(() => {
              entry.starting = undefined;
            });
          },
        },
      });
      made.authorization = authorization;
      auth = {
        authorization,
        authProvider: () => authorization.authProvider(),
        fetch: (base) => authorization.fetch(base),
      };
    }
    made.connection = new McpConnection(server, config, this.#connectionOptions, { ...settings, auth });
    // The tools it lists are bound to it: a call through them still goes to the caller's own.
    const route = this.#options.routeOf(server);
    if (route !== undefined) made.connection.route = route;
    entry = made as Entry;
    this.#entries.set(name, entry);
    // Every entry, even one only asked about (`mcp_auth`), goes when unused.
    this.#touch(name, entry);
    return entry;
  }

  /** (Re)starts the idle timer of `entry`: it closes after `idleMs` without a call, unless a sign-in waits. */
  #touch(name: string, entry: Entry): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (entry.authorization?.pending || entry.starting) return this.#touch(name, entry);
      if (this.#entries.get(name) === entry) this.#entries.delete(name);
      void entry.connection.close().catch(() => undefined);
    }, this.#options.idleMs ?? DEFAULT_IDLE_MS);
    entry.timer.unref();
  }
}

/**
 * The entry of `server` for `principal`, and for a token exchange also by the `token`'s digest
 * (else its scope set): each token is exchanged for itself, never for a wider one.
 */
function key(server: string, principal: string, token?: Pick<Caller, 'scopes' | 'tokenDigest'>): string {
  if (token === undefined) return `${server}\n${principal}`;
  if (token.tokenDigest !== undefined) return `${server}\n${principal}\n#${token.tokenDigest}`;
  return `${server}\n${principal}\n${[...new Set(token.scopes ?? [])].sort().join(' ')}`;
}

/** The transport auth of a token-exchange connection: the exchanged token, forgotten on a 401. */
function exchangeAuth(
  server: string,
  exchange: TokenExchange,
  subject: () => string | undefined,
): TransportAuth {
  // The subject token the upstream's token was last exchanged for: the one a 401 forgets.
  let last: string | undefined;
  return {
    authProvider: () => ({
      token: async () => {
        const token = subject();
        if (token === undefined)
          throw new McpToolsError(
            'PERMISSION_DENIED',
            `server "${server}" takes the caller's OAuth token in exchange: call the gateway with an OAuth access token`,
            { recoverable: false, data: { server, tokenExchange: true } },
          );
        last = token;
        return exchange.token(token);
      },
      onUnauthorized: async () => {
        if (last !== undefined) exchange.forget(last);
      },
    }),
  };
}
