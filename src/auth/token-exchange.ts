import { createHash } from 'node:crypto';
import { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';
import type { TokenExchangeConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/** An exchanged token is asked for again this long before it expires. */
const MARGIN_MS = 30_000;
/** How long a token without `expires_in` is kept. */
const DEFAULT_LIFETIME_MS = 5 * 60_000;
/** At most this many exchanged tokens are kept; beyond it the expired, then the oldest, go. */
const MAX_KEPT = 10_000;

/** The key of a subject token's exchanged token: its digest, so the map never holds a caller's token. */
const subjectKey = (subjectToken: string) => createHash('sha256').update(subjectToken).digest('base64url');

interface Exchanged {
  accessToken: string;
  expiresAt: number;
}

/**
 * RFC 8693 token exchange for one upstream (`auth: { type: "tokenExchange" }`): the caller's
 * own access token (the subject token) is traded, as the gateway's confidential client, for one
 * whose audience is the upstream; that one is kept, by the digest of the subject token it was
 * exchanged for, until shortly before it expires. Keyed by the subject token, not the principal:
 * a user's low-scope token (another client) must never be answered with the token exchanged
 * for the same user's high-scope one. The subject token goes to the authorization server only,
 * never to the upstream.
 */
export class TokenExchange {
  readonly #server: string;
  readonly #config: TokenExchangeConfig;
  readonly #fetch: typeof fetch;
  readonly #cache = new Map<string, Exchanged>();
  readonly #inFlight = new Map<string, Promise<Exchanged>>();
  #endpoint: Promise<string> | undefined;

  /** Throws `CONFIG_INVALID` when neither `tokenEndpoint` nor `issuer` says where to exchange. */
  constructor(server: string, config: TokenExchangeConfig, fetchFn: typeof fetch = fetch) {
    if (config.tokenEndpoint === undefined && config.issuer === undefined)
      throw new McpToolsError(
        'CONFIG_INVALID',
        `server "${server}": field "auth": tokenExchange needs tokenEndpoint or issuer`,
        { recoverable: false },
      );
    this.#server = server;
    this.#config = config;
    this.#fetch = fetchFn;
  }

  /** A token for the upstream exchanged for `subjectToken`, unless one exchanged for it is kept. */
  async token(subjectToken: string): Promise<string> {
    const key = subjectKey(subjectToken);
    const kept = this.#cache.get(key);
    if (kept !== undefined && kept.expiresAt - MARGIN_MS > Date.now()) return kept.accessToken;
    let flight = this.#inFlight.get(key);
    if (flight === undefined) {
      flight = this.#exchange(subjectToken).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, flight);
    }
    const exchanged = await flight;
    this.#keep(key, exchanged);
    return exchanged.accessToken;
  }

  /** Forgets the token exchanged for `subjectToken` (the upstream refused it): the next call exchanges again. */
  forget(subjectToken: string): void {
    this.#cache.delete(subjectKey(subjectToken));
  }

  #keep(key: string, exchanged: Exchanged): void {
    if (this.#cache.size >= MAX_KEPT) {
      const now = Date.now();
      for (const [old, entry] of this.#cache) if (entry.expiresAt - MARGIN_MS <= now) this.#cache.delete(old);
      if (this.#cache.size >= MAX_KEPT) this.#cache.delete(this.#cache.keys().next().value!);
    }
    this.#cache.delete(key);
    this.#cache.set(key, exchanged);
  }

  async #tokenEndpoint(): Promise<string> {
    if (this.#config.tokenEndpoint !== undefined) return this.#config.tokenEndpoint;
    this.#endpoint ??= discoverAuthorizationServerMetadata(this.#config.issuer!, {
      fetchFn: this.#fetch,
    }).then((metadata) => {
      if (metadata?.token_endpoint === undefined) throw this.#error('the issuer publishes no token endpoint');
      return metadata.token_endpoint;
    });
    this.#endpoint.catch(() => {
      this.#endpoint = undefined;
    });
    return this.#endpoint;
  }

  async #exchange(subjectToken: string): Promise<Exchanged> {
    const { clientId, clientSecret, audience, scopes } = this.#config;
    const body = new URLSearchParams({
      grant_type: GRANT,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      requested_token_type: ACCESS_TOKEN_TYPE,
      audience,
      ...(URL.canParse(audience) ? { resource: audience } : {}),
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    });
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
      'base64',
    );
    let response: Response;
    try {
      response = await this.#fetch(await this.#tokenEndpoint(), {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      if (McpToolsError.isInstance(error)) throw error;
      throw this.#error('the authorization server could not be reached', error);
    }
    const answer = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!response.ok || typeof answer.access_token !== 'string') {
      // Only the error code (RFC 6749 §5.2) is told: a description could echo what was sent.
      const code =
        typeof answer.error === 'string' && /^[\w.-]{1,64}$/.test(answer.error) ? answer.error : undefined;
      throw this.#error(`the token exchange was refused (HTTP ${response.status}${code ? `, ${code}` : ''})`);
    }
    const lifetime =
      typeof answer.expires_in === 'number' && answer.expires_in > 0
        ? answer.expires_in * 1000
        : DEFAULT_LIFETIME_MS;
    return { accessToken: answer.access_token, expiresAt: Date.now() + lifetime };
  }

  #error(reason: string, cause?: unknown): McpToolsError {
    return new McpToolsError('PERMISSION_DENIED', `server "${this.#server}": ${reason}`, {
      recoverable: false,
      data: { server: this.#server, tokenExchange: true },
      ...(cause === undefined ? {} : { cause }),
    });
  }
}
