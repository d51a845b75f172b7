import { isAbsolute, relative } from 'node:path';

/** A config file's path as shown in messages: relative to `cwd` when inside it, else absolute. */
export function displayConfigPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
