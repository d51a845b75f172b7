import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * undici's package folder (a dependency of mcptools), bound read-only into a box whose network
 * is an allowlist: the box's Node preload installs its proxy agent from there.
 */
export function undiciFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('undici'));
}
