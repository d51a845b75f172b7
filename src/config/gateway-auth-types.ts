/**
 * Who a rule applies to: every listed condition must hold. `principals` are principal ids
 * (`oauth:<sub>`, `client:<client id>`, or a static token's `principal`); `scopes` must all have
 * been granted; each `claims` entry names a claim that must equal the value, or contain it when
 * the claim is an array (`{ "groups": "ops" }`). An empty selector matches every caller.
 */
export interface CallerSelector {
  principals?: string[];
  scopes?: string[];
  claims?: Record<string, string | number | boolean>;
}

/** `gateway.auth` with `type: "oauth"`: the gateway as an OAuth 2.1 resource server. */
export interface GatewayOAuthConfig {
  type: 'oauth';
  /** The authorization server's issuer; tokens must carry it as `iss`. */
  issuer: string;
  /** This gateway's resource identifier (its `/mcp` URL); tokens must carry it in `aud`. */
  audience: string;
  /** Where the signing keys are. Default: the issuer's metadata (`jwks_uri`). */
  jwksUrl?: string;
  /** RFC 7662 introspection of opaque tokens (and of JWTs with `jwts`). */
  introspection?: {
    url?: string;
    clientId: string;
    clientSecret: string;
    /** Introspection requests in flight at most; more wait their turn. Default 4. */
    maxConcurrent?: number;
    /**
     * Also ask the authorization server about a JWT (after its signature, issuer, audience and
     * lifetime passed), so that a revoked JWT is refused within `tokenCacheSeconds`. Default
     * `false`: a JWT is checked locally only, and stays valid until it expires.
     */
    jwts?: boolean;
  };
  /** Scopes every request must carry (403 `insufficient_scope` otherwise). */
  requiredScopes?: string[];
  /** Scopes advertised in the protected-resource metadata. */
  scopesSupported?: string[];
  /** Seconds of clock skew tolerated on `exp`/`nbf`. Default 30. */
  clockToleranceSeconds?: number;
  /** Least seconds between two JWKS fetches prompted by an unknown `kid`. Default 30. */
  jwksCooldownSeconds?: number;
  /** Most seconds a verified token is remembered before it is checked again (never past `exp`). Default 60. */
  tokenCacheSeconds?: number;
  /** Seconds a token found invalid is refused without asking again. Default 5. */
  failureCacheSeconds?: number;
  /** Callers who match are the owner (they see `ownerOnly` tools). Default: no OAuth caller is. */
  owner?: CallerSelector;
  /**
   * A browser login at the issuer (OpenID Connect, authorization code with PKCE) as this client:
   * a caller's upstream sign-in link then completes only in a browser signed in as that caller,
   * and the owner's status page can approve held-back definitions. Default: none (the page that
   * finishes an upstream sign-in asks for the caller's token).
   */
  login?: GatewayLoginConfig;
}

/** `gateway.auth.login`: the gateway as an OpenID client of its own issuer, for browsers. */
export interface GatewayLoginConfig {
  /** The client registered at the issuer, with redirect URI `<gateway origin>/oauth/login`. */
  clientId: string;
  /** Its secret (use `${VAR}`); none for a public client (PKCE alone). */
  clientSecret?: string;
  /** Seconds a sign-in link and a login under way stay valid. Default 300 (as long as an upstream flow waits). */
  flowSeconds?: number;
  /** Seconds a browser session lasts. Default 900. */
  sessionSeconds?: number;
}

/** One named static bearer token of `gateway.tokens`. */
export interface GatewayTokenConfig {
  /** The secret (use `${VAR}`); compared in constant time. */
  token: string;
  /** The principal id its holder acts as. Default `token:<name>`. */
  principal?: string;
  /** The only profile it may use (`/mcp` serves that profile to it). Default: any. */
  profile?: string;
  /** Whether its holder is the owner (sees `ownerOnly` tools). Default `false`. */
  owner?: boolean;
  /** Scopes its holder is treated as having (for `access` rules). */
  scopes?: string[];
  /** Claims its holder is treated as having (for `access` rules). */
  claims?: Record<string, unknown>;
}

/**
 * One `gateway.access` rule: the tools (globs over exposed names or `server/tool`) and servers
 * (globs; their tools, resources and prompts) it names are visible only to callers who match
 * `who`. A tool named by several rules needs all of them; a tool named by none is visible to
 * every caller the front door let in.
 */
export interface AccessRuleConfig {
  tools?: string[];
  servers?: string[];
  who: CallerSelector;
}
