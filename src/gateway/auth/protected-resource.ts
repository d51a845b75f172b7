import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';

/** A profile's name as it appears in `/mcp/<name>` (the configuration's rule for profile names). */
const PROFILE = /^[\w-]{1,64}$/;

/** `new URL(value)`, or `undefined` when `value` is not a URL. */
function urlOf(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The profile a request path names (`/mcp/<name>`, also with a trailing `/`), if it names one. */
export function profileOfPath(pathname: string): string | undefined {
  const match = /^\/mcp\/([^/]+)\/?$/.exec(pathname);
  return match !== null && PROFILE.test(match[1]!) ? match[1] : undefined;
}

/**
 * The gateway's resource identifiers (RFC 8707 / RFC 9728) from its configured audience: `/mcp`
 * is the audience exactly as written (an audience without a path is never advertised with a `/`
 * added, or a token issued for the advertised resource would not match it); `/mcp/<profile>` is
 * the audience's URL with `/<profile>` appended (with `/mcp/<profile>` for an audience without a
 * path). A token may name the gateway's own resource, which is good at every endpoint, or one
 * profile's, which is good at that profile's endpoint only. A non-URL audience has no profile
 * resources.
 */
export class ProtectedResource {
  readonly audience: string;
  readonly #url: URL | undefined;
  /** The audience's URL without a trailing `/`, under which profile resources sit. */
  readonly #base: string | undefined;

  constructor(audience: string) {
    this.audience = audience;
    this.#url = urlOf(audience);
    if (this.#url !== undefined) {
      const path = this.#url.pathname.replace(/\/+$/, '');
      this.#base = `${this.#url.origin}${path === '' ? '/mcp' : path}`;
    }
  }

  /** The origin of the audience (the gateway's public URL), when the audience is a URL. */
  get origin(): string | undefined {
    return this.#url?.origin;
  }

  /** The resource identifier of `/mcp` (`profile` undefined) or of `/mcp/<profile>`. */
  resourceOf(profile: string | undefined): string {
    if (profile === undefined || this.#base === undefined) return this.audience;
    return `${this.#base}/${profile}`;
  }

  /** Where the metadata document of `profile`'s endpoint is, when the audience is a URL. */
  metadataUrlOf(profile: string | undefined): string | undefined {
    if (this.#url === undefined) return undefined;
    return getOAuthProtectedResourceMetadataUrl(new URL(this.resourceOf(profile)));
  }

  /** Whether `audiences` (a token's `aud`) name the gateway's own resource. */
  namesGateway(audiences: readonly string[]): boolean {
    return audiences.some((audience) => this.#same(audience, this.audience));
  }

  /** Whether `audiences` name the gateway's own resource or any profile's (the verifier's check). */
  namesAny(audiences: readonly string[]): boolean {
    if (this.namesGateway(audiences)) return true;
    if (this.#base === undefined) return false;
    const prefix = `${this.#base}/`;
    return audiences.some(
      (audience) => audience.startsWith(prefix) && PROFILE.test(audience.slice(prefix.length)),
    );
  }

  /** Whether `audiences` let a token in at `/mcp` (`profile` undefined) or `/mcp/<profile>`. */
  admits(audiences: readonly string[], profile: string | undefined): boolean {
    if (this.namesGateway(audiences)) return true;
    return profile !== undefined && this.#base !== undefined && audiences.includes(this.resourceOf(profile));
  }

  /** Equal, or the same URL without a path written with and without its `/`. */
  #same(audience: string, expected: string): boolean {
    if (audience === expected) return true;
    if (this.#url === undefined || this.#url.pathname !== '/') return false;
    return audience.replace(/\/$/, '') === expected.replace(/\/$/, '');
  }
}
