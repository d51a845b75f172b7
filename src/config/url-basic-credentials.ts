/**
 * The base64 `user:password` of a URL's userinfo, as an `Authorization: Basic` header carries it
 * (RFC 7617, UTF-8), or `undefined` when the URL has none. fetch refuses URLs with credentials,
 * so mcptools sends them this way instead.
 */
export function urlBasicCredentials(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const pair = `${decodeUrlPart(url.username)}:${decodeUrlPart(url.password)}`;
  return Buffer.from(pair, 'utf8').toString('base64');
}

/** `decodeURIComponent`, keeping text with a malformed escape as it is. */
export function decodeUrlPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
