import { randomBytes } from 'node:crypto';
import type { AuthorizationServerMetadata, OAuthClientInformationMixed } from '@modelcontextprotocol/client';
import type { JWTVerifyGetKey } from 'jose';
import type { GatewayOAuthConfig } from '../../config/gateway-auth-types.js';
import type { Caller } from '../../tool/call-context.js';
import { matchesCaller } from './caller-selector.js';

/** Where the issuer sends a browser back after a login: the redirect URI to register. */
export const LOGIN_CALLBACK_PATH = '/oauth/login';

/** ID token signature algorithms accepted: asymmetric only, as for access tokens. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** A login under way: what the browser carries (sealed) until the issuer sends it back. */
export interface LoginStart {
  url: URL;
  codeVerifier: string;
  state: string;
  nonce: string;
}

/**
 * The gateway as an OpenID client of the front door's own issuer (`gateway.auth.login`): a
 * browser login by authorization code with PKCE (the MCP SDK client's `startAuthorization` and
 * `exchangeAuthorization`), whose ID token is checked with `jose` (signature against the
 * issuer's keys, issuer, audience = this client, the login's nonce). The principal is the one
 * the front door gives a bearer token of the same subject (`oauth:<sub>`), and the owner flag
 * comes from the same `owner` selector.
 */
export class FrontDoorLogin {
  readonly #config: GatewayOAuthConfig;
  readonly #client: OAuthClientInformationMixed;
  #metadata: Promise<AuthorizationServerMetadata> | undefined;
  #keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(config: GatewayOAuthConfig & { login: NonNullable<GatewayOAuthConfig['login']> }) {
    this.#config = config;
    this.#client = {
      client_id: config.login.clientId,
      ...(config.login.clientSecret === undefined ? {} : { client_secret: config.login.clientSecret }),
    };
  }

  #serverMetadata(): Promise<AuthorizationServerMetadata> {
    this.#metadata ??= (async () => {
      const { discoverAuthorizationServerMetadata } = await import('@modelcontextprotocol/client');
      const found = await discoverAuthorizationServerMetadata(this.#config.issuer);
      if (found === undefined) throw new Error('the issuer publishes no metadata');
      return found;
    })().catch((error: unknown) => {
      // Asked again at the next login: the issuer may have been down.
      this.#metadata = undefined;
      throw error;
    });
    return this.#metadata;
  }

  #jwks(): Promise<JWTVerifyGetKey> {
    this.#keys ??= (async () => {
      const { createRemoteJWKSet } = await import('jose');
      const metadata = (await this.#serverMetadata()) as { jwks_uri?: unknown };
      const url = this.#config.jwksUrl ?? metadata.jwks_uri;
      if (typeof url !== 'string') throw new Error('the issuer publishes no jwks_uri');
      return createRemoteJWKSet(new URL(url));
    })().catch((error: unknown) => {
      this.#keys = undefined;
      throw error;
    });
    return this.#keys;
  }

  /** Starts a login whose redirect comes back to `redirectUri`. */
  async start(redirectUri: string): Promise<LoginStart> {
    const { startAuthorization } = await import('@modelcontextprotocol/client');
    const metadata = await this.#serverMetadata();
    const state = randomBytes(16).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    const { authorizationUrl, codeVerifier } = await startAuthorization(this.#config.issuer, {
      metadata,
      clientInformation: this.#client,
      redirectUrl: redirectUri,
      scope: 'openid',
      state,
    });
    authorizationUrl.searchParams.set('nonce', nonce);
    return { url: authorizationUrl, codeVerifier, state, nonce };
  }

  /**
   * The caller the issuer's redirect proves (`code`, and `iss` when sent), for the login whose
   * verifier and nonce are given; throws when the code, the ID token or its nonce do not check out.
   */
  async finish(
    params: URLSearchParams,
    login: { codeVerifier: string; nonce: string; redirectUri: string },
  ): Promise<Caller> {
    const { exchangeAuthorization } = await import('@modelcontextprotocol/client');
    const { jwtVerify } = await import('jose');
    const metadata = await this.#serverMetadata();
    const code = params.get('code');
    if (!code) throw new Error('no code');
    const iss = params.get('iss');
    const tokens = await exchangeAuthorization(this.#config.issuer, {
      metadata,
      clientInformation: this.#client,
      authorizationCode: code,
      codeVerifier: login.codeVerifier,
      redirectUri: login.redirectUri,
      ...(iss === null ? {} : { iss }),
    });
    const idToken = (tokens as { id_token?: unknown }).id_token;
    if (typeof idToken !== 'string') throw new Error('no ID token');
    const { payload } = await jwtVerify(idToken, await this.#jwks(), {
      issuer: this.#config.issuer,
      audience: this.#config.login!.clientId,
      algorithms: ALGORITHMS,
      clockTolerance: this.#config.clockToleranceSeconds ?? 30,
      requiredClaims: ['sub', 'exp', 'nonce'],
    });
    if (payload.nonce !== login.nonce || typeof payload.sub !== 'string') throw new Error('wrong nonce');
    const who: Caller = {
      principal: `oauth:${payload.sub}`,
      owner: false,
      via: 'oauth',
      subject: payload.sub,
      scopes: [],
      claims: payload as Record<string, unknown>,
    };
    if (this.#config.owner !== undefined && matchesCaller(this.#config.owner, who)) who.owner = true;
    return who;
  }
}
