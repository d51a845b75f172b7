import { createHash } from 'node:crypto';
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import type { GatewayOAuthConfig } from '../../config/gateway-auth-types.js';
import type { Caller } from '../../tool/call-context.js';
import { matchesCaller } from './caller-selector.js';
import {
  audiences,
  invalidToken,
  OAuthAccessTokenVerifier,
  type TokenClaims,
} from './oauth-token-verifier.js';
import { ProtectedResource, profileOfPath } from './protected-resource.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * What names a caller's access token without holding it: its SHA-256 (base64url). A token
 * exchange keys by it, so two tokens of one principal never share an exchanged token.
 */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Subject tokens kept at most (the expired, then the oldest, go first). */
const MAX_SUBJECTS = 10_000;

/** The profile the endpoint `requestUrl` names (`/mcp/<profile>`), if any. */
function profileOfUrl(requestUrl: string): string | undefined {
  return URL.canParse(requestUrl) ? profileOfPath(new URL(requestUrl).pathname) : undefined;
}

/**
 * The gateway as an OAuth 2.1 resource server (MCP authorization, RFC 9728): it serves its
 * protected-resource metadata, answers a request without a valid token with 401 and a
 * `WWW-Authenticate: Bearer … resource_metadata="…"` challenge (403 `insufficient_scope` when a
 * required scope is missing), and turns a valid token into the caller's principal. The SDK
 * server's `verifyBearerToken` / `bearerAuthChallengeResponse` / metadata builder do the
 * protocol; {@link OAuthAccessTokenVerifier} checks the token.
 */
export class GatewayOAuth {
  readonly config: GatewayOAuthConfig;
  readonly verifier: OAuthAccessTokenVerifier;
  readonly #resource: ProtectedResource;
  readonly #metadata: OAuthProtectedResourceMetadata | undefined;
  readonly #requiredScopes: string[];
  /**
   * Callers by the exact `Authorization` header that proved who they are, until the token
   * expires and at most `tokenCacheSeconds` (then the verifier is asked again).
   */
  readonly #callers: VerifiedTokenCache<Caller>;
  readonly #toleranceSeconds: number;
  /**
   * Each verified access token by its digest ({@link tokenDigest}) until it expires, kept only
   * while an upstream takes it in a token exchange ({@link keepSubjectTokens}); it is sent to
   * the issuer, never to an upstream. By the token itself: a call is exchanged from the token it
   * came with, never from another token of the same user (another client, other scopes).
   */
  #subjects: Map<string, { authorization: string; exp: number }> | undefined;
  #onVerified: ((who: Caller) => void) | undefined;

  /** Throws (a configuration mistake) when the issuer is not HTTPS outside loopback. */
  constructor(config: GatewayOAuthConfig) {
    this.config = config;
    this.verifier = new OAuthAccessTokenVerifier(config);
    this.#requiredScopes = config.requiredScopes ?? [];
    this.#toleranceSeconds = config.clockToleranceSeconds ?? 30;
    this.#callers = new VerifiedTokenCache({ maxAgeSeconds: config.tokenCacheSeconds ?? 60 });
    this.#resource = new ProtectedResource(config.audience);
    // Built once, at start: a misconfigured issuer fails here, before any request.
    const metadata = buildOAuthProtectedResourceMetadata({
      oauthMetadata: { issuer: config.issuer } as OAuthMetadata,
      resourceServerUrl: new URL(this.#resource.origin ?? 'http://127.0.0.1/'),
      ...(config.scopesSupported ? { scopesSupported: config.scopesSupported } : {}),
      resourceName: 'mcptools gateway',
    });
    this.#metadata = this.#resource.origin === undefined ? undefined : metadata;
  }

  /** The origin of the audience (this gateway's public URL), when the audience is a URL. */
  publicOrigin(): string | undefined {
    return this.#resource.origin;
  }

  /**
   * Where the metadata document is, for a request to `requestUrl`: that of `/mcp/<profile>` for a
   * request to a profile's endpoint, else that of `/mcp` (at the audience's origin, when it is a URL).
   */
  resourceMetadataUrl(requestUrl: string): string {
    const profile = profileOfUrl(requestUrl);
    return (
      this.#resource.metadataUrlOf(profile) ??
      getOAuthProtectedResourceMetadataUrl(
        new URL(profile === undefined ? '/mcp' : `/mcp/${profile}`, requestUrl),
      )
    );
  }

  /**
   * The RFC 9728 document, for `GET /.well-known/oauth-protected-resource` and its path-suffixed
   * forms (`…/mcp`, `…/mcp/<profile>`); `undefined` for any other path.
   */
  metadataResponse(method: string, pathname: string): Response | undefined {
    if (
      pathname !== WELL_KNOWN &&
      !/^\/\.well-known\/oauth-protected-resource\/mcp(?:\/[\w-]{1,64})?\/?$/.test(pathname)
    )
      return undefined;
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS' };
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (method !== 'GET' && method !== 'HEAD')
      return new Response('Method Not Allowed\n', {
        status: 405,
        headers: { allow: 'GET, HEAD, OPTIONS', ...cors },
      });
    // The resource of the endpoint the path names, written as the audience is (no `/` added).
    const profile = profileOfPath(pathname.slice(WELL_KNOWN.length));
    const resource = this.#resource.resourceOf(profile);
    const document = this.#metadata
      ? { ...this.#metadata, resource }
      : {
          resource,
          authorization_servers: [this.config.issuer],
          ...(this.config.scopesSupported ? { scopes_supported: this.config.scopesSupported } : {}),
        };
    return Response.json(document, { headers: cors });
  }

  /** The 401 a request without a usable token gets. */
  unauthorized(requestUrl: string): Response {
    return bearerAuthChallengeResponse(invalidToken(), {
      requiredScopes: this.#requiredScopes,
      resourceMetadataUrl: this.resourceMetadataUrl(requestUrl),
    });
  }

  /**
   * The caller behind `authorization` (a `Bearer` header), or the refusal to send. A header
   * whose token was verified before answers at once (no promise) until the token expires.
   */
  authenticate(
    authorization: string | null,
    requestUrl: string,
  ): Response | Caller | Promise<Response | Caller> {
    if (authorization !== null) {
      const known = this.#callers.get(authorization, Date.now() / 1000, this.#toleranceSeconds);
      if (known !== undefined) {
        if (!this.#admits(known, requestUrl)) return this.unauthorized(requestUrl);
        if (this.#subjects !== undefined) this.#keepSubject(known, authorization);
        return known;
      }
    }
    return this.#verify(authorization, requestUrl).then((answer) =>
      answer instanceof Response || this.#admits(answer, requestUrl) ? answer : this.unauthorized(requestUrl),
    );
  }

  /** Whether the caller's token names the resource of the endpoint `requestUrl` is for (a profile's is good there only). */
  #admits(who: Caller, requestUrl: string): boolean {
    return this.#resource.admits(audiences(who.claims ?? {}), profileOfUrl(requestUrl));
  }

  /** Told of each caller whose token was verified (once per token: a remembered token is not). */
  onVerified(listener: (who: Caller) => void): void {
    this.#onVerified = listener;
  }

  /** From now on, remember each principal's newest token (an upstream exchanges it: RFC 8693). */
  keepSubjectTokens(): void {
    this.#subjects ??= new Map();
  }

  /** The access token whose digest is `digest` (a caller's `tokenDigest`), while it is unexpired (with {@link keepSubjectTokens}). */
  subjectToken(digest: string | undefined): string | undefined {
    if (digest === undefined) return undefined;
    const kept = this.#subjects?.get(digest);
    if (kept === undefined) return undefined;
    if (kept.exp * 1000 <= Date.now()) {
      this.#subjects?.delete(digest);
      return undefined;
    }
    return kept.authorization.replace(/^Bearer\s+/i, '');
  }

  #keepSubject(who: Caller, authorization: string, exp?: unknown): void {
    const subjects = this.#subjects!;
    const key = who.tokenDigest;
    if (key === undefined || subjects.has(key)) return;
    const expiry = typeof exp === 'number' ? exp : this.#callers.expiry(authorization);
    if (expiry === undefined) return;
    if (subjects.size >= MAX_SUBJECTS) {
      const now = Date.now() / 1000;
      for (const [old, entry] of subjects) if (entry.exp <= now) subjects.delete(old);
      if (subjects.size >= MAX_SUBJECTS) subjects.delete(subjects.keys().next().value!);
    }
    subjects.set(key, { authorization, exp: expiry });
  }

  async #verify(authorization: string | null, requestUrl: string): Promise<Response | Caller> {
    const options = {
      verifier: this.verifier,
      requiredScopes: this.#requiredScopes,
      resourceMetadataUrl: this.resourceMetadataUrl(requestUrl),
    };
    try {
      const info = await verifyBearerToken(authorization, options);
      const { subject, clientId, claims } = info.extra as unknown as TokenClaims;
      const principal =
        subject !== undefined
          ? `oauth:${subject}`
          : clientId !== undefined
            ? `client:${clientId}`
            : undefined;
      if (principal === undefined) throw invalidToken();
      const who: Caller = {
        principal,
        owner: false,
        via: 'oauth',
        ...(subject === undefined ? {} : { subject }),
        ...(clientId === undefined ? {} : { clientId }),
        ...(authorization === null
          ? {}
          : { tokenDigest: tokenDigest(authorization.replace(/^Bearer\s+/i, '')) }),
        scopes: info.scopes,
        claims,
      };
      if (this.config.owner !== undefined && matchesCaller(this.config.owner, who)) who.owner = true;
      const frozen = Object.freeze(who);
      if (this.#subjects !== undefined && authorization !== null)
        this.#keepSubject(frozen, authorization, claims.exp);
      this.#onVerified?.(frozen);
      if (authorization !== null && typeof claims.exp === 'number')
        this.#callers.set(
          authorization,
          frozen,
          claims.exp,
          typeof claims.nbf === 'number' ? claims.nbf : undefined,
        );
      return frozen;
    } catch (error) {
      // Every refusal of a token is the same answer, a missing or malformed header's too: what
      // was wrong is not told. A missing scope (403) and an unreachable server (500) are not refusals of the token.
      if (OAuthError.isInstance(error) && error.code === OAuthErrorCode.InvalidToken)
        return this.unauthorized(requestUrl);
      return bearerAuthChallengeResponse(error, options);
    }
  }
}
