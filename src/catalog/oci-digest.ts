import { createHash } from 'node:crypto';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** An OCI image reference split: `host[:port]/repository[:tag][@digest]`. */
export interface OciReference {
  /** The registry's host (and port), `undefined` when the reference names none. */
  host?: string;
  repository: string;
  tag?: string;
  digest?: string;
}

/** The manifest types asked for: an index (multi-platform) first, as `docker pull` does. */
const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

const DIGEST = /^sha256:[a-f0-9]{64}$/;

/**
 * Splits an image reference as the registry's `server.json` writes it
 * (`[registry/]namespace/image[:tag][@digest]`). The first part is a registry host only when it
 * has a `.` or a `:` or is `localhost` (the rule `docker` uses).
 */
export function parseOciReference(reference: string): OciReference {
  let rest = reference;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let host: string | undefined;
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  if (first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    host = first;
    rest = rest.slice(slash + 1);
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  return {
    ...(host ? { host } : {}),
    repository: rest,
    ...(tag ? { tag } : {}),
    ...(digest ? { digest } : {}),
  };
}

const isLoopback = (host: string) => /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)(:\d+)?$/.test(host);

/** `https:` for a registry, `http:` on loopback only (a test's registry). */
function baseOf(host: string): string {
  return `${isLoopback(host) ? 'http' : 'https'}://${host}`;
}

/** The parameters of a `WWW-Authenticate: Bearer realm="…",service="…",scope="…"` challenge. */
function bearerChallenge(header: string | null): Record<string, string> | undefined {
  if (header === null || !/^Bearer\s/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const match of header.slice(7).matchAll(/([A-Za-z]+)="([^"]*)"/g)) params[match[1]!] = match[2]!;
  return params;
}

const refuse = (message: string) => new McpToolsError('UPSTREAM_ERROR', message, { recoverable: false });

/**
 * The digest the registry serves for `reference`'s tag now, over the OCI distribution API: a
 * `HEAD /v2/<repository>/manifests/<tag>` (its `Docker-Content-Digest`; without one, the
 * manifest fetched and hashed), with the anonymous pull token a `401` challenge asks for
 * (`realm?service=…&scope=repository:<repository>:pull`). https only, http on loopback. A
 * reference that names no registry host, a tag the registry does not have, or an answer without
 * a usable digest is an error naming the reference.
 */
export async function resolveOciDigest(
  reference: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<string> {
  const parsed = parseOciReference(reference);
  const get = options.fetch ?? fetch;
  const timeout = () => AbortSignal.timeout(options.timeoutMs ?? 30_000);
  if (parsed.host === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `the image ${reference} names no registry host, so its tag is not resolved here; ask its publisher for a reference with the registry host or a @sha256: digest`,
      { recoverable: false },
    );
  const tag = parsed.tag ?? 'latest';
  const url = `${baseOf(parsed.host)}/v2/${parsed.repository}/manifests/${encodeURIComponent(tag)}`;
  const ask = (method: 'HEAD' | 'GET', token?: string) =>
    get(url, {
      method,
      redirect: 'follow',
      signal: timeout(),
      headers: { accept: MANIFEST_TYPES, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  let token: string | undefined;
  let response = await ask('HEAD');
  if (response.status === 401) {
    const challenge = bearerChallenge(response.headers.get('www-authenticate'));
    if (challenge?.realm === undefined)
      throw refuse(`the registry of ${reference} asks for credentials mcptools does not have`);
    const realm = new URL(challenge.realm);
    if (realm.protocol !== 'https:' && !(realm.protocol === 'http:' && isLoopback(realm.host)))
      throw refuse(`the registry of ${reference} sends for its token to ${realm.origin}, which is not https`);
    if (challenge.service) realm.searchParams.set('service', challenge.service);
    realm.searchParams.set('scope', challenge.scope ?? `repository:${parsed.repository}:pull`);
    const answer = await get(realm, { signal: timeout() });
    const body = (await answer.json().catch(() => ({}))) as { token?: unknown; access_token?: unknown };
    const found = typeof body.token === 'string' ? body.token : body.access_token;
    if (!answer.ok || typeof found !== 'string')
      throw refuse(`the registry of ${reference} gave no pull token (HTTP ${answer.status})`);
    token = found;
    response = await ask('HEAD', token);
  }
  if (response.status === 404) throw refuse(`the registry has no image ${reference}`);
  if (!response.ok) throw refuse(`the registry answered HTTP ${response.status} for the image ${reference}`);
  let digest = response.headers.get('docker-content-digest') ?? undefined;
  if (digest === undefined) {
    // Without the header the digest is the hash of the manifest's bytes, as served.
    const manifest = await ask('GET', token);
    if (!manifest.ok)
      throw refuse(`the registry answered HTTP ${manifest.status} for the image ${reference}`);
    digest = `sha256:${createHash('sha256')
      .update(Buffer.from(await manifest.arrayBuffer()))
      .digest('hex')}`;
  }
  if (!DIGEST.test(digest))
    throw refuse(
      `the registry answered a digest mcptools does not use (${digest.slice(0, 80)}) for ${reference}`,
    );
  return digest;
}
