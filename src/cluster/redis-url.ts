import { McpToolsError } from '../errors/mcp-tools-error.js';

/** Where a Redis server is, as the client takes it: a `redis://` URL, or a unix socket path. */
export type RedisTarget = { url: string } | { path: string; database?: number; password?: string };

/**
 * Reads `redis://[user:password@]HOST:PORT[/db]`, `rediss://…` or `unix:///path/redis.sock`
 * (`?db=N` and a `password` query parameter allowed on a socket). Anything else is refused.
 */
export function parseRedisUrl(text: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(text);
  }
  if (url.protocol === 'redis:' || url.protocol === 'rediss:') {
    if (url.hostname === '') throw invalid(text);
    return { url: text };
  }
  if (url.protocol === 'unix:') {
    if (url.pathname === '' || url.pathname === '/') throw invalid(text);
    const db = url.searchParams.get('db');
    const password = url.searchParams.get('password') ?? (url.password || undefined);
    return {
      path: decodeURIComponent(url.pathname),
      ...(db === null ? {} : { database: Number(db) }),
      ...(password ? { password: decodeURIComponent(password) } : {}),
    };
  }
  throw invalid(text);
}

/** The URL with any password replaced by `***`, fit for logs and errors. */
export function redactRedisUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password) url.password = '***';
    if (url.searchParams.has('password')) url.searchParams.set('password', '***');
    return url.href;
  } catch {
    return '(an unreadable Redis URL)';
  }
}

function invalid(text: string): McpToolsError {
  return new McpToolsError(
    'INVALID_ARGUMENTS',
    `--cluster expects redis://HOST:PORT or unix:///path/redis.sock, got "${redactRedisUrl(text)}"`,
    { recoverable: false },
  );
}
