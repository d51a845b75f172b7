import { stat } from 'node:fs/promises';
import { type ConfigSearchOptions, configSearchPaths } from './config-search-paths.js';

/**
 * The first existing file of {@link configSearchPaths}, or `undefined`. Pass `cwd` and `homeDir`
 * to search somewhere other than the real project and home.
 */
export async function findConfigFile(options: ConfigSearchOptions = {}): Promise<string | undefined> {
  for (const path of configSearchPaths(options)) {
    const found = await stat(path).catch(() => undefined);
    if (found?.isFile()) return path;
  }
  return undefined;
}
