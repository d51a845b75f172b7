import { isIP } from 'node:net';

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
