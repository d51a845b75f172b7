import { McpToolsError } from '../errors/mcp-tools-error.js';

/** Longest resource URI sent on. */
const MAX_URI_LENGTH = 8192;
/** Schemes that run or inline content rather than name a resource. */
const refusedSchemes = new Set(['javascript:', 'vbscript:', 'data:', 'blob:']);

/**
 * Refuses, before it reaches a server, a resource URI that is not a URI, is over 8 KiB, holds
 * control characters, uses a scheme that runs or inlines content (`javascript:`, `data:`, …),
 * or climbs with a `..` path segment (plain or percent-encoded; URL parsing would silently
 * resolve it). Throws `INVALID_URI` naming the reason.
 */
export function checkResourceUri(uri: string, server: string): void {
  const refuse = (reason: string): never => {
    const shown = uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
    throw new McpToolsError(
      'INVALID_URI',
      `${JSON.stringify(shown)} is not a valid resource URI: ${reason}`,
      {
        data: { server, uri: shown },
      },
    );
  };
  if (uri.length > MAX_URI_LENGTH) refuse(`longer than ${MAX_URI_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(uri)) refuse('it contains control characters');
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    refuse('expected scheme:rest');
    return;
  }
  if (refusedSchemes.has(parsed.protocol)) refuse(`the ${parsed.protocol} scheme is not a resource`);
  const path = uri.slice(parsed.protocol.length).split(/[?#]/, 1)[0] ?? '';
  if (/(^|[/\\])(\.|%2e){2}([/\\]|$)/i.test(path)) refuse('a ".." segment climbs out of its path');
}
