import type { AuthorizationStart } from '../auth/server-authorization.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { CallContext, Caller } from '../tool/call-context.js';
import type { McpConnection } from './mcp-connection.js';
import {
  PrincipalConnections,
  type PrincipalConnectionsOptions,
  usesCallerCredentials,
} from './principal-connections.js';
import type { ServePerCallerOptions } from './serve-per-caller-options.js';

/** What the hub gives {@link CallerRouting}: its connections and how a caller's connection is made. */
export interface CallerRoutingOptions
  extends Pick<
    PrincipalConnectionsOptions,
    'connectionOptions' | 'connectTimeoutMs' | 'store' | 'listed' | 'warn'
  > {
  connections: ReadonlyMap<string, McpConnection>;
  /** Whether `server`'s tools are registered (some connection listed them). */
  hasCatalog(server: string): boolean;
}

/**
 * The hub's side of upstream calls as the caller: once a gateway calls {@link serve}, every
 * connection of a server that takes each caller's own credentials (per-user OAuth, token
 * exchange) routes its calls to the calling principal's own connection, and sign-in questions
 * about such a server are answered for that principal.
 */
export class CallerRouting {
  readonly #options: CallerRoutingOptions;
  #active: { pool: PrincipalConnections; caller: ServePerCallerOptions['caller'] } | undefined;

  constructor(options: CallerRoutingOptions) {
    this.#options = options;
  }

  /** Starts routing; returns the function that stops it (and closes the callers' connections). */
  serve(options: ServePerCallerOptions): () => Promise<void> {
    if (this.#active !== undefined)
      throw new McpToolsError('INVALID_ARGUMENTS', 'callers are served already');
    const { connections: _connections, hasCatalog: _hasCatalog, ...base } = this.#options;
    const pool = new PrincipalConnections({
      ...base,
      redirect: options.redirect,
      ...(options.idleMs === undefined ? {} : { idleMs: options.idleMs }),
      ...(options.subjectToken === undefined ? {} : { subjectToken: options.subjectToken }),
      routeOf: (server) => this.#routeOf(server),
    });
    this.#active = { pool, caller: options.caller };
    for (const connection of this.#options.connections.values()) this.adopt(connection);
    return async () => {
      if (this.#active?.pool !== pool) return;
      this.#active = undefined;
      for (const connection of this.#options.connections.values()) delete connection.route;
      await pool.close();
    };
  }

  /** Gives `connection` (a server's shared connection, new or old) its route while routing is on. */
  adopt(connection: McpConnection): void {
    if (this.#active !== undefined && usesCallerCredentials(connection.config))
      connection.route = this.#routeOf(connection.name);
  }

  /**
   * The one routing decision for every request to `server` made for the call `context` (tool
   * calls, lists, templates, completions, reads, prompts, subscriptions, tasks): `undefined`
   * when the shared connection serves it (a server that takes no per-caller credentials, routing
   * off, or the operator calling); otherwise the caller's own connection — opened, and with
   * `signIn` their sign-in started when they have none — or a refusal when the request names no
   * caller. The shared connection (an operator's sign-in, if any) is never a caller's access.
   */
  route(
    server: string,
    context: CallContext | undefined,
    options: { signIn?: boolean } = {},
  ): Promise<McpConnection> | undefined {
    const active = this.#active;
    const config = this.#options.connections.get(server)?.config;
    if (active === undefined || config === undefined || !usesCallerCredentials(config)) return undefined;
    const caller = active.caller(context);
    if (caller === 'operator') return undefined;
    if (caller === undefined)
      return Promise.reject(
        new McpToolsError(
          'PERMISSION_DENIED',
          `server "${server}" uses each caller's own credentials, and this request names no caller`,
          { recoverable: false, data: { server } },
        ),
      );
    return active.pool.connection(server, config, caller, options);
  }

  /** The calling principal's sign-in to `server`, or `undefined` when `server` is not theirs to sign in to. */
  authorize(server: string, context: CallContext | undefined): Promise<AuthorizationStart> | undefined {
    const routed = this.#callerRoute(server, context);
    return routed?.pool.authorize(server, routed.config, routed.caller);
  }

  /** The URL the calling principal's sign-in waits on (`null`: none; `undefined`: not a per-caller server). */
  pendingUrl(server: string, context: CallContext | undefined): string | null | undefined {
    const routed = this.#callerRoute(server, context);
    if (routed === undefined) return undefined;
    return routed.pool.pendingUrl(server, routed.caller.principal) ?? null;
  }

  /** Whether the calling principal has signed in to `server`; `undefined` when that is not per caller. */
  async signInState(
    server: string,
    context: CallContext | undefined,
  ): Promise<'authorized' | 'pending' | 'needs_authorization' | undefined> {
    const routed = this.#callerRoute(server, context);
    if (routed === undefined) return undefined;
    const { pool, caller, config } = routed;
    if (pool.pendingUrl(server, caller.principal) !== undefined) return 'pending';
    return (await pool.signedIn(server, config, caller)) ? 'authorized' : 'needs_authorization';
  }

  /**
   * Opens `caller`'s connections to the per-caller servers with no catalog yet, without starting
   * any sign-in: the first caller with credentials (an exchangeable token, or a stored sign-in)
   * brings the tool list.
   */
  warm(caller: Caller): void {
    const active = this.#active;
    if (active === undefined) return;
    for (const [name, connection] of this.#options.connections) {
      if (!usesCallerCredentials(connection.config) || this.#options.hasCatalog(name)) continue;
      void active.pool.connection(name, connection.config, caller, { signIn: false }).catch(() => undefined);
    }
  }

  /** Closes every caller's connection to `server` (removed from the hub, or about to be replaced). */
  async closeServer(server: string): Promise<void> {
    await this.#active?.pool.closeServer(server);
  }

  /** Stops routing and closes every caller's connection. */
  async close(): Promise<void> {
    const pool = this.#active?.pool;
    this.#active = undefined;
    await pool?.close();
  }

  #callerRoute(server: string, context: CallContext | undefined) {
    const active = this.#active;
    const config = this.#options.connections.get(server)?.config;
    if (active === undefined || config === undefined || !usesCallerCredentials(config)) return undefined;
    const caller = active.caller(context);
    return caller === undefined || caller === 'operator' ? undefined : { pool: active.pool, caller, config };
  }

  /** The `route` of every connection of `server`: the caller's own connection, or the shared one. */
  #routeOf(server: string): NonNullable<McpConnection['route']> {
    return (context) => {
      const routed = this.route(server, context, { signIn: true });
      if (routed !== undefined) return routed;
      const shared = this.#options.connections.get(server);
      if (shared !== undefined) return Promise.resolve(shared);
      return Promise.reject(new McpToolsError('CONNECTION_FAILED', `server "${server}" is no longer served`));
    };
  }
}
