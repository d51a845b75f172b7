import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthConfig } from '../config/config-types.js';
import type { TokenStore, VaultEntry } from './token-store.js';

/**
 * The SDK's `OAuthClientProvider` for one server, backed by a {@link TokenStore}: the SDK's
 * `auth()` does discovery, registration, PKCE and token requests; this only keeps what they
 * produce. Inside {@link VaultOAuthProvider.transaction} reads and writes go to a draft that the
 * store writes once, under its lock.
 */
export class VaultOAuthProvider implements OAuthClientProvider {
  readonly #serverUrl: string;
  readonly #store: TokenStore;
  readonly #config: OAuthConfig | undefined;
  #redirectUrl: string | undefined;
  #onRedirect: ((url: URL) => void | Promise<void>) | undefined;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /**
   * The entry as last read or written by this process; `read` is false until the first read.
   * "No entry" is remembered too: a server that needs no token must not cost a read of the
   * vault on every HTTP request (a 401 reads it afresh, under its lock, in `transaction`).
   */
  #cached: { read: boolean; entry: VaultEntry | undefined } = { read: false, entry: undefined };
  #draft: { entry: VaultEntry | undefined } | undefined;

  constructor(serverUrl: string, store: TokenStore, config: OAuthConfig | undefined) {
    this.#serverUrl = serverUrl;
    this.#store = store;
    this.#config = config;
  }

  /** Where the authorization server sends the browser back; set only while a person is signing in. */
  get redirectUrl(): string | undefined {
    return this.#redirectUrl ?? this.#storedRedirectUrl();
  }

  get clientMetadataUrl(): string | undefined {
    return this.#config?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.redirectUrl;
    const secret = this.#config?.clientSecret;
    return {
      client_name: 'mcptools',
      redirect_uris: redirect === undefined ? [] : [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      ...(this.#config?.scopes?.length ? { scope: this.#config.scopes.join(' ') } : {}),
    };
  }

  /** Starts (with a redirect URL and a handler for the authorization URL) or ends interactive mode. */
  setInteractive(redirectUrl: string | undefined, onRedirect?: (url: URL) => void | Promise<void>): void {
    this.#redirectUrl = redirectUrl;
    this.#onRedirect = onRedirect;
    this.#state = undefined;
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url');
    return this.#state;
  }

  /** The `state` sent with the last authorization request. */
  expectedState(): string | undefined {
    return this.#state;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    if (this.#config?.clientId) {
      return {
        client_id: this.#config.clientId,
        ...(this.#config.clientSecret ? { client_secret: this.#config.clientSecret } : {}),
      };
    }
    return (await this.#entry())?.client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered client comes from the configuration each time; it is never written.
    if (this.#config?.clientId) return;
    await this.#change((entry) => ({ ...entry, client }));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.#entry())?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = Date.now();
    await this.#change((entry) => {
      const next: Partial<VaultEntry> = { ...entry, tokens };
      if (typeof tokens.expires_in === 'number') next.expiresAt = now + tokens.expires_in * 1000;
      else delete next.expiresAt;
      return next;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.#onRedirect === undefined) throw new NeedsAuthorization();
    await this.#onRedirect(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined)
      throw new Error('no PKCE code verifier: the authorization did not start here');
    return this.#codeVerifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'verifier') this.#codeVerifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
    if (scope === 'all' || scope === 'client' || scope === 'tokens') {
      await this.#change((entry) => {
        const next = { ...entry };
        if (scope !== 'client') {
          delete next.tokens;
          delete next.expiresAt;
        }
        if (scope !== 'tokens') delete next.client;
        return next;
      });
    }
  }

  /** The vault entry, read afresh (`fresh`) or as this process last saw it. */
  async entry(fresh = false): Promise<VaultEntry | undefined> {
    if (this.#draft) return this.#draft.entry;
    if (fresh || !this.#cached.read)
      this.#cached = { read: true, entry: await this.#store.get(this.#serverUrl) };
    return this.#cached.entry;
  }

  /**
   * Runs `body` with the store locked for this server: `body` gets the newest entry, and every
   * save the SDK makes meanwhile lands in one write at the end, even when `body` throws.
   */
  async transaction<T>(body: (entry: VaultEntry | undefined) => Promise<T>): Promise<T> {
    let outcome: { value: T } | { error: unknown } | undefined;
    await this.#store.update(this.#serverUrl, async (current) => {
      this.#draft = { entry: current };
      try {
        outcome = { value: await body(current) };
      } catch (error) {
        outcome = { error };
      }
      const written = this.#draft.entry;
      this.#draft = undefined;
      this.#cached = { read: true, entry: written };
      return written;
    });
    if (outcome === undefined) throw new Error('the token store did not run the update');
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  async #entry(): Promise<VaultEntry | undefined> {
    return this.entry();
  }

  async #change(change: (entry: Partial<VaultEntry>) => Partial<VaultEntry>): Promise<void> {
    const apply = (current: VaultEntry | undefined): VaultEntry => ({
      ...change(current ?? {}),
      serverUrl: this.#serverUrl,
      updatedAt: Date.now(),
    });
    if (this.#draft) {
      this.#draft.entry = apply(this.#draft.entry);
      return;
    }
    this.#cached = { read: true, entry: await this.#store.update(this.#serverUrl, apply) };
  }

  #storedRedirectUrl(): string | undefined {
    const client = this.#cached.entry?.client as { redirect_uris?: string[] } | undefined;
    return client?.redirect_uris?.[0] ?? 'http://127.0.0.1/callback';
  }
}

/** Thrown by `redirectToAuthorization` when nobody is there to open the URL. */
export class NeedsAuthorization extends Error {
  constructor() {
    super('a person must authorize this server');
    this.name = 'NeedsAuthorization';
  }
}
