import { createHash } from 'node:crypto';
import {
  type AuthInfo,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import type { JWTVerifyGetKey } from 'jose';
import type { GatewayOAuthConfig } from '../../config/gateway-auth-types.js';
import { ConcurrencyGate } from './concurrency-gate.js';
import { ProtectedResource } from './protected-resource.js';
import { introspectToken } from './token-introspection.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

/** Signature algorithms accepted on access tokens: asymmetric only (never `none`, never a shared secret). */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** What a verified token says about its holder, beside the SDK's `AuthInfo` fields. */
export interface TokenClaims {
  subject: string | undefined;
  clientId: string | undefined;
  claims: Record<string, unknown>;
}

/** The one refusal every bad token gets: no detail on what was wrong with it. */
export const invalidToken = () =>
  new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is not valid');

/** Scopes from `scope` (space-separated, RFC 9068 / 7662) or `scp` (an array, common elsewhere). */
function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  if (Array.isArray(claims.scp))
    return claims.scp.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/** A token's `aud` as a list (a string or an array of them). */
export function audiences(claims: Readonly<Record<string, unknown>>): string[] {
  if (typeof claims.aud === 'string') return [claims.aud];
  return Array.isArray(claims.aud) ? claims.aud.filter((aud): aud is string => typeof aud === 'string') : [];
}

/**
 * Whether a JWT's `typ` header allows it to be an access token: `at+jwt` (RFC 9068), or a plain
 * `JWT` or none (what many authorization servers still issue access tokens with). Another
 * `…+jwt` type names another kind of token (a logout token, a DPoP proof, a security event).
 */
function accessTokenJwtType(typ: unknown): boolean {
  if (typ === undefined) return true;
  if (typeof typ !== 'string') return false;
  const type = typ.toLowerCase().replace(/^application\//, '');
  return type === 'at+jwt' || type === 'jwt';
}

/**
 * Whether introspection's `token_type` (RFC 7662 §2.2) allows an access token: absent, `Bearer`,
 * `DPoP` or the RFC 8693 access-token URN. A refresh token (`refresh_token`, `Refresh`) is refused.
 */
function accessTokenType(tokenType: unknown): boolean {
  if (tokenType === undefined) return true;
  if (typeof tokenType !== 'string') return false;
  return ['bearer', 'dpop', 'access_token', 'urn:ietf:params:oauth:token-type:access_token'].includes(
    tokenType.toLowerCase(),
  );
}

/** A token of three base64url parts is a JWS (a JWT); anything else is opaque. */
const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/** Counts of what the verifier did (for tests and the bench). */
export interface VerifierCounts {
  jwtVerified: number;
  introspected: number;
  cacheHits: number;
  /** Requests refused at once because their token was found invalid a moment before. */
  failureHits: number;
}

/**
 * Verifies access tokens for the gateway as an OAuth 2.1 resource server, as the SDK's
 * {@link OAuthTokenVerifier}: a JWT is checked with `jose` (signature against the issuer's JWKS,
 * cached and refetched on an unknown `kid`; `iss`; `aud` must name this gateway; `exp`/`nbf`
 * with a small skew; asymmetric algorithms only; a `typ` of another kind of token refused), and
 * asked about at the issuer too only with `introspection.jwts`; an opaque token through RFC 7662
 * introspection (a refresh token's `token_type` refused). A token that passed is remembered (by
 * its digest) until it expires and at most `tokenCacheSeconds` (default 60), so a revocation
 * counts within that time while a steady stream of requests with one token costs a lookup; a
 * token found invalid is refused without asking for `failureCacheSeconds` (default 5);
 * concurrent requests with one token share one verification; introspection runs at most
 * `introspection.maxConcurrent` (default 4) requests at once. Every failure is the same
 * `invalid_token`, with no detail.
 */
export class OAuthAccessTokenVerifier implements OAuthTokenVerifier {
  readonly counts: VerifierCounts = { jwtVerified: 0, introspected: 0, cacheHits: 0, failureHits: 0 };
  readonly #config: GatewayOAuthConfig;
  readonly #cache: VerifiedTokenCache<AuthInfo>;
  /** Tokens found invalid a moment ago: a flood of one junk token costs one check. */
  readonly #failures: VerifiedTokenCache<true>;
  /** Verifications under way, by token digest: concurrent requests with one token share one. */
  readonly #pending = new Map<string, Promise<AuthInfo>>();
  readonly #introspections: ConcurrencyGate;
  readonly #resource: ProtectedResource;
  #metadata: Promise<Record<string, unknown> | undefined> | undefined;
  #jwks: Promise<JWTVerifyGetKey> | undefined;
  readonly #toleranceSeconds: number;

  constructor(config: GatewayOAuthConfig) {
    this.#config = config;
    this.#toleranceSeconds = config.clockToleranceSeconds ?? 30;
    this.#cache = new VerifiedTokenCache({ maxAgeSeconds: config.tokenCacheSeconds ?? 60 });
    this.#failures = new VerifiedTokenCache({ maxAgeSeconds: config.failureCacheSeconds ?? 5 });
    this.#introspections = new ConcurrencyGate(config.introspection?.maxConcurrent ?? 4);
    this.#resource = new ProtectedResource(config.audience);
  }

  /**
   * The authorization server's metadata (RFC 8414 or OpenID discovery, found by the SDK client's
   * discovery), fetched once, as served: the SDK's parsed copy drops members it does not know
   * (`introspection_endpoint`).
   */
  #serverMetadata(): Promise<Record<string, unknown> | undefined> {
    this.#metadata ??= (async () => {
      const { discoverAuthorizationServerMetadata } = await import('@modelcontextprotocol/client');
      let served: Record<string, unknown> | undefined;
      const found = await discoverAuthorizationServerMetadata(this.#config.issuer, {
        fetchFn: async (url, init) => {
          const response = await fetch(url, init);
          if (response.ok) served = (await response.clone().json()) as Record<string, unknown>;
          return response;
        },
      });
      return found === undefined ? undefined : served;
    })().catch((error: unknown) => {
      // Tried again on the next token: the server may have been down.
      this.#metadata = undefined;
      throw error;
    });
    return this.#metadata;
  }

  #keys(): Promise<JWTVerifyGetKey> {
    this.#jwks ??= (async () => {
      const { createRemoteJWKSet } = await import('jose');
      let url = this.#config.jwksUrl;
      if (url === undefined) {
        const metadata = await this.#serverMetadata();
        const discovered = metadata?.jwks_uri;
        if (typeof discovered !== 'string') throw new Error('the issuer publishes no jwks_uri');
        url = discovered;
      }
      return createRemoteJWKSet(new URL(url), {
        cooldownDuration: (this.#config.jwksCooldownSeconds ?? 30) * 1000,
        cacheMaxAge: 10 * 60 * 1000,
      });
    })().catch((error: unknown) => {
      this.#jwks = undefined;
      throw error;
    });
    return this.#jwks;
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const key = createHash('sha256').update(token).digest('base64');
    const now = Date.now() / 1000;
    const cached = this.#cache.get(key, now, this.#toleranceSeconds);
    if (cached !== undefined) {
      this.counts.cacheHits++;
      return cached;
    }
    if (this.#failures.get(key, now, 0) !== undefined) {
      this.counts.failureHits++;
      throw invalidToken();
    }
    let pending = this.#pending.get(key);
    if (pending === undefined) {
      pending = this.#verifyNew(token, key).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  async #verifyNew(token: string, key: string): Promise<AuthInfo> {
    let verified: { claims: Record<string, unknown>; expiresAt: number; notBefore?: number };
    try {
      if (looksLikeJwt(token)) {
        verified = await this.#verifyJwt(token);
        // Opt-in: the issuer is asked too, so that a revoked JWT is refused within the cache's time.
        if (this.#config.introspection?.jwts === true) await this.#introspect(token);
      } else if (this.#config.introspection !== undefined) {
        verified = await this.#introspect(token);
      } else {
        throw invalidToken();
      }
    } catch (error) {
      // Only a verdict is remembered: an unreachable server is asked again at the next request.
      if (OAuthError.isInstance(error) && error.code === OAuthErrorCode.InvalidToken)
        this.#failures.set(key, true, Number.POSITIVE_INFINITY);
      throw error;
    }
    const info = this.#authInfo(token, verified.claims, verified.expiresAt);
    this.#cache.set(key, info, verified.expiresAt, verified.notBefore);
    return info;
  }

  async #verifyJwt(token: string) {
    const { jwtVerify } = await import('jose');
    let keys: JWTVerifyGetKey;
    try {
      keys = await this.#keys();
    } catch {
      throw new OAuthError(OAuthErrorCode.ServerError, 'The authorization server cannot be reached');
    }
    this.counts.jwtVerified++;
    try {
      // The audience is checked below: the gateway's own resource or one of its profiles'.
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer: this.#config.issuer,
        algorithms: ALGORITHMS,
        clockTolerance: this.#toleranceSeconds,
        requiredClaims: ['exp'],
      });
      if (!accessTokenJwtType(protectedHeader.typ) || !this.#resource.namesAny(audiences(payload)))
        throw invalidToken();
      return {
        claims: payload as Record<string, unknown>,
        expiresAt: payload.exp as number,
        ...(typeof payload.nbf === 'number' ? { notBefore: payload.nbf } : {}),
      };
    } catch {
      throw invalidToken();
    }
  }

  async #introspect(token: string) {
    const settings = this.#config.introspection!;
    let url = settings.url;
    if (url === undefined) {
      const metadata = await this.#serverMetadata().catch(() => undefined);
      const discovered = (metadata as { introspection_endpoint?: unknown } | undefined)
        ?.introspection_endpoint;
      if (typeof discovered !== 'string')
        throw new OAuthError(OAuthErrorCode.ServerError, 'The authorization server cannot be reached');
      url = discovered;
    }
    const introspectionUrl = url;
    const claims = await this.#introspections.run(() => {
      this.counts.introspected++;
      return introspectToken(token, { ...settings, url: introspectionUrl });
    });
    const now = Date.now() / 1000;
    const exp = claims.exp;
    const nbf = claims.nbf;
    if (
      claims.active !== true ||
      !accessTokenType(claims.token_type) ||
      typeof exp !== 'number' ||
      exp + this.#toleranceSeconds < now ||
      (typeof nbf === 'number' && nbf - this.#toleranceSeconds > now) ||
      (claims.iss !== undefined && claims.iss !== this.#config.issuer) ||
      !this.#resource.namesAny(audiences(claims))
    )
      throw invalidToken();
    return { claims, expiresAt: exp, ...(typeof nbf === 'number' ? { notBefore: nbf } : {}) };
  }

  #authInfo(token: string, claims: Record<string, unknown>, expiresAt: number): AuthInfo {
    const clientId =
      typeof claims.client_id === 'string'
        ? claims.client_id
        : typeof claims.azp === 'string'
          ? claims.azp
          : undefined;
    const subject = typeof claims.sub === 'string' ? claims.sub : undefined;
    const extra: TokenClaims = { subject, clientId, claims };
    return {
      token,
      clientId: clientId ?? '',
      scopes: scopesOf(claims),
      // The SDK's own check: past `exp` is refused; the skew is granted here.
      expiresAt: expiresAt + this.#toleranceSeconds,
      extra: extra as unknown as Record<string, unknown>,
    };
  }
}
