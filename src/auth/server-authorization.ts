import {
  type AuthProvider,
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { OAuthConfig } from '../config/config-types.js';
import type { McpToolsError } from '../errors/mcp-tools-error.js';
import { authRequiredError, findAuthRequired } from './auth-required-error.js';
import type { LoopbackRedirect } from './loopback-redirect.js';
import type { TokenStore, VaultEntry } from './token-store.js';
import { NeedsAuthorization, VaultOAuthProvider } from './vault-oauth-provider.js';

/** Receives each authorization URL a person must open (the CLI opens a browser; a test fetches it). */
export type AuthorizationUrlHandler = (url: URL, context: { server: string }) => void | Promise<void>;

/** What {@link ServerAuthorization.authorize} reports once the flow has started. */
export interface AuthorizationStart {
  /** `authorized`: done without a person (a refresh sufficed); `pending`: `url` awaits a person. */
  status: 'authorized' | 'pending';
  /** The URL to open, while `pending`. */
  url?: string;
  /** Settles when the flow ends: tokens saved, or why not. */
  completion: Promise<void>;
}

/** Settings of one {@link ServerAuthorization}. */
export interface ServerAuthorizationOptions {
  server: string;
  serverUrl: string;
  config: OAuthConfig | undefined;
  store: TokenStore;
  /** With it, a server that needs a person starts the flow by itself; without, it waits in `auth_required`. */
  onAuthorizationUrl?: AuthorizationUrlHandler;
  /** How long a person has to finish signing in. Default 5 minutes. */
  flowTimeoutMs?: number;
  /** Told when the server needs a person, and when a flow has completed. */
  listeners?: { authRequired(error: McpToolsError): void; authorized(): void };
  /** The vault key of the entry (default `serverUrl`): one per principal for a per-user server. */
  vaultKey?: string;
  /** Receives the redirect instead of a loopback listener (the gateway's `/oauth/callback`). */
  redirect?: RedirectReceiver;
}

/**
 * Opens a receiver of one authorization redirect whose `state` must be `state()`; the loopback
 * listener of {@link startLoopbackRedirect} is one, the gateway's `/oauth/callback` another.
 * `owner`: the gateway caller who started the flow; only they may complete it.
 */
export type RedirectReceiver = (state: () => string | undefined, owner?: string) => Promise<LoopbackRedirect>;

type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];

/** Refresh an access token this long before it expires. */
const REFRESH_MARGIN_MS = 60_000;
const DEFAULT_FLOW_TIMEOUT_MS = 5 * 60_000;

/**
 * OAuth for one remote server, as the glue between the SDK's OAuth client and mcptools: the
 * transport's `AuthProvider` (the vault's token, refreshed before it expires and on a 401, under
 * the vault's lock), a `fetch` that answers a 403 `insufficient_scope` with step-up, and the
 * interactive flow (loopback redirect on 127.0.0.1, authorization code + PKCE).
 */
export class ServerAuthorization {
  readonly provider: VaultOAuthProvider;
  readonly #options: ServerAuthorizationOptions;
  #challenge: { resourceMetadataUrl?: URL; scope?: string } = {};
  /** The access token last handed to the transport: the one a 401 refers to. */
  #lastToken: string | undefined;
  #flow: Promise<AuthorizationStart> | undefined;
  #pendingUrl: string | undefined;

  constructor(options: ServerAuthorizationOptions) {
    this.#options = options;
    this.provider = new VaultOAuthProvider(
      options.vaultKey ?? options.serverUrl,
      options.store,
      options.config,
    );
  }

  /** The `authProvider` for the SDK transport. */
  authProvider(): AuthProvider {
    return {
      token: () => this.#token(),
      onUnauthorized: (context) => this.#onUnauthorized(context),
    };
  }

  /** A `fetch` for the SDK transport that re-authorizes with a wider scope on 403 `insufficient_scope`. */
  fetch(base: FetchLike = fetch): FetchLike {
    return async (input, init) => {
      const response = await base(input, init);
      if (response.status !== 403) return response;
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error !== 'insufficient_scope') return response;
      const granted = (await this.provider.entry())?.tokens?.scope;
      const wanted = computeScopeUnion(granted, scope);
      await this.#rememberScope(wanted);
      if (!this.#options.onAuthorizationUrl) {
        throw authRequiredError(this.#options.server, 'the server asks for a wider scope');
      }
      await response.body?.cancel().catch(() => undefined);
      const start = await this.authorize({ scope: wanted, force: true });
      await start.completion;
      const headers = new Headers(init?.headers);
      const token = (await this.provider.entry())?.tokens?.access_token;
      if (token) headers.set('authorization', `Bearer ${token}`);
      return base(input, { ...init, headers });
    };
  }

  /**
   * Starts the interactive flow (or joins the one under way): resolves once the authorization
   * URL is known (`pending`) or the server was authorized without a person. The URL goes to
   * `onAuthorizationUrl` too; `completion` settles when the tokens are saved.
   */
  authorize(
    options: { scope?: string; force?: boolean; onAuthorizationUrl?: AuthorizationUrlHandler } = {},
  ): Promise<AuthorizationStart> {
    this.#flow ??= this.#startFlow(options);
    return this.#flow;
  }

  /** Whether a flow is under way. */
  get pending(): boolean {
    return this.#flow !== undefined;
  }

  /** The URL the flow under way waits on. */
  get pendingUrl(): string | undefined {
    return this.#pendingUrl;
  }

  async #token(): Promise<string | undefined> {
    // A vault that cannot be read must not break servers that need no token: send none, and
    // let a 401 (whose handling reports the vault's error) say whether one was needed.
    const entry = await this.provider.entry().catch(() => undefined);
    const tokens = entry?.tokens;
    if (
      tokens?.refresh_token &&
      entry?.expiresAt !== undefined &&
      entry.expiresAt - Date.now() < REFRESH_MARGIN_MS
    ) {
      try {
        await this.#refresh(tokens.access_token);
      } catch (error) {
        const required = findAuthRequired(error);
        if (required) {
          this.#options.listeners?.authRequired(required);
          throw required;
        }
        // Unreachable authorization server: try the old token; a 401 will say if it is dead.
      }
    }
    this.#lastToken = (await this.provider.entry().catch(() => undefined))?.tokens?.access_token;
    return this.#lastToken;
  }

  async #onUnauthorized(context: UnauthorizedContext): Promise<void> {
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(context.response);
    this.#challenge = {
      ...this.#challenge,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
    };
    try {
      await this.#refresh(this.#lastToken, context.fetchFn);
      return;
    } catch (error) {
      const required = findAuthRequired(error);
      if (!required) throw error;
      if (!this.#options.onAuthorizationUrl) {
        this.#options.listeners?.authRequired(required);
        throw required;
      }
    }
    const start = await this.authorize();
    await start.completion;
  }

  /**
   * Refreshes under the vault's lock unless another process (or call) already replaced
   * `stale`; throws an authorization-required error when no refresh is possible.
   */
  async #refresh(stale: string | undefined, fetchFn?: FetchLike): Promise<void> {
    const server = this.#options.server;
    await this.provider.transaction(async (current) => {
      const tokens = current?.tokens;
      if (tokens && tokens.access_token !== stale && !expiring(current)) return;
      if (!tokens?.refresh_token) {
        throw authRequiredError(
          server,
          tokens ? 'the access token expired and there is no refresh token' : 'no token yet',
        );
      }
      if (!(await this.provider.clientInformation()))
        throw authRequiredError(server, 'the client is not registered');
      try {
        const result = await auth(this.provider, {
          serverUrl: this.#options.serverUrl,
          ...(this.#challenge.resourceMetadataUrl
            ? { resourceMetadataUrl: this.#challenge.resourceMetadataUrl }
            : {}),
          ...(fetchFn ? { fetchFn } : {}),
        });
        if (result !== 'AUTHORIZED') throw authRequiredError(server, 'the token could not be refreshed');
      } catch (error) {
        if (error instanceof NeedsAuthorization) {
          throw authRequiredError(server, 'the authorization server refused the refresh token');
        }
        throw error;
      }
    });
  }

  async #startFlow(options: {
    scope?: string;
    force?: boolean;
    onAuthorizationUrl?: AuthorizationUrlHandler;
  }): Promise<AuthorizationStart> {
    const { server, serverUrl, config } = this.#options;
    const handler = options.onAuthorizationUrl ?? this.#options.onAuthorizationUrl;
    let announce!: (url: URL | undefined) => void;
    const announced = new Promise<URL | undefined>((resolve) => {
      announce = resolve;
    });
    const completion = (async () => {
      const stored = await this.provider.entry(true);
      const loopback = await this.#openRedirect(stored);
      try {
        this.provider.setInteractive(loopback.redirectUrl, async (authorizationUrl) => {
          const url = loopback.present?.(authorizationUrl) ?? authorizationUrl;
          this.#pendingUrl = url.href;
          announce(url);
          await handler?.(url, { server });
        });
        if (!config?.clientId) await this.#forgetClientUnlessRedirect(loopback.redirectUrl);
        const scope = computeScopeUnion(
          config?.scopes?.join(' '),
          stored?.requestedScope,
          this.#challenge.scope,
          options.scope,
        );
        const common = {
          serverUrl,
          ...(scope ? { scope } : {}),
          ...(this.#challenge.resourceMetadataUrl
            ? { resourceMetadataUrl: this.#challenge.resourceMetadataUrl }
            : {}),
        };
        const result = await auth(this.provider, { ...common, forceReauthorization: options.force ?? false });
        if (result === 'AUTHORIZED') return;
        const timeoutMs = this.#options.flowTimeoutMs ?? DEFAULT_FLOW_TIMEOUT_MS;
        const params = await withTimeout(loopback.callback, timeoutMs, server);
        const exchanged = await auth(this.provider, {
          ...common,
          authorizationCode: params.get('code') ?? '',
          ...(params.get('iss') ? { iss: params.get('iss') ?? '' } : {}),
        });
        if (exchanged !== 'AUTHORIZED') throw authRequiredError(server, 'the code exchange did not complete');
      } finally {
        this.#pendingUrl = undefined;
        this.provider.setInteractive(undefined);
        await loopback.close();
      }
    })();
    const settled = completion.then(
      () => {
        this.#flow = undefined;
        this.#options.listeners?.authorized();
      },
      (error: unknown) => {
        this.#flow = undefined;
        this.#options.listeners?.authRequired(
          findAuthRequired(error) ?? authRequiredError(server, 'the authorization did not complete', error),
        );
        throw error;
      },
    );
    settled.catch(() => undefined);
    void completion.then(
      () => announce(undefined),
      () => announce(undefined),
    );
    const url = await announced;
    if (url === undefined) {
      await settled;
      return { status: 'authorized', completion: settled };
    }
    return { status: 'pending', url: url.href, completion: settled };
  }

  /** Where the redirect comes back: the configured receiver, else a loopback listener. */
  async #openRedirect(stored: VaultEntry | undefined): Promise<LoopbackRedirect> {
    const state = () => this.provider.expectedState();
    if (this.#options.redirect) return this.#options.redirect(state);
    // The redirect listener (and node:http) loads with the first sign-in, not with the hub.
    const { startLoopbackRedirect } = await import('./loopback-redirect.js');
    const port = this.#options.config?.redirectPort ?? redirectPortOf(stored);
    return startLoopbackRedirect({ port, state }).catch(() => startLoopbackRedirect({ state }));
  }

  async #rememberScope(scope: string | undefined): Promise<void> {
    if (!scope) return;
    const key = this.#options.vaultKey ?? this.#options.serverUrl;
    await this.#options.store.update(key, (entry) => ({
      ...(entry ?? { serverUrl: key }),
      requestedScope: computeScopeUnion(entry?.requestedScope, scope),
      updatedAt: Date.now(),
    }));
  }

  /** A dynamically registered client is bound to its redirect URI: register afresh for another port. */
  async #forgetClientUnlessRedirect(redirectUrl: string): Promise<void> {
    const client = (await this.provider.entry())?.client as { redirect_uris?: string[] } | undefined;
    if (client?.redirect_uris === undefined || client.redirect_uris.includes(redirectUrl)) return;
    await this.provider.invalidateCredentials('client');
  }
}

function expiring(entry: VaultEntry | undefined): boolean {
  return entry?.expiresAt !== undefined && entry.expiresAt - Date.now() < REFRESH_MARGIN_MS;
}

/** The port of the loopback redirect a stored client was registered with, to register it only once. */
function redirectPortOf(entry: VaultEntry | undefined): number | undefined {
  const uri = (entry?.client as { redirect_uris?: string[] } | undefined)?.redirect_uris?.[0];
  if (uri === undefined) return undefined;
  try {
    const url = new URL(uri);
    return url.hostname === '127.0.0.1' && url.port ? Number(url.port) : undefined;
  } catch {
    return undefined;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, server: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(authRequiredError(server, `nobody completed the sign-in within ${Math.round(ms / 1000)} s`)),
      ms,
    );
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
