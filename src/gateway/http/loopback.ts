import { isIP } from 'node:net';
import { McpToolsError } from '../../errors/mcp-tools-error.js';

/** `true` for `localhost`, `127.0.0.0/8` and `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The host names a loopback-bound gateway accepts in `Host` and `Origin`. */
export function loopbackHostnames(): string[] {
  return ['localhost', '127.0.0.1', '[::1]'];
}

/**
 * Throws unless binding `host` is safe: a loopback address, or any address once the front door
 * has credentials (a token or OAuth). Anyone who can reach an open gateway could call every tool.
 */
export function assertBindAllowed(host: string, hasCredentials: boolean): void {
  if (hasCredentials || isLoopbackHost(host)) return;
  throw new McpToolsError(
    'INVALID_ARGUMENTS',
    `refusing to listen on ${host} without a token: anyone who can reach it could call every tool. Pass --token <secret> or set MCPTOOLS_TOKEN (library: createGateway({ token }))`,
    { recoverable: false },
  );
}
