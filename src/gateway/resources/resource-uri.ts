/**
 * The qualified form of an upstream resource URI (or URI template), which names its server:
 * the gateway serves a URI under the name its server gave unless two servers offer it (both
 * may serve `file:///a`); then each is listed in this form, which routes a read back to the
 * right one. The server name is percent-encoded; the original follows unchanged, so a template
 * stays a template (`mcptools://files/file:///{path}`).
 */
export function wrapResourceUri(server: string, uri: string): string {
  return `mcptools://${encodeURIComponent(server)}/${uri}`;
}

/** The server and original URI behind a wrapped URI, or `undefined` for any other URI. */
export function unwrapResourceUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith('mcptools://')) return undefined;
  const rest = uri.slice('mcptools://'.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  let server: string;
  try {
    server = decodeURIComponent(rest.slice(0, slash));
  } catch {
    return undefined;
  }
  const original = rest.slice(slash + 1);
  return original === '' ? undefined : { server, uri: original };
}
