import { resolve } from 'node:path';
import { configError } from './config-error.js';
import { type ConfigSearchOptions, configSearchPaths } from './config-search-paths.js';
import type { McpToolsConfig } from './config-types.js';
import { displayConfigPath } from './display-config-path.js';
import { findConfigFile } from './find-config-file.js';
import { type ParseConfigOptions, parseConfig } from './parse-config.js';
import { readConfigFile } from './read-config-file.js';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions extends Omit<ParseConfigOptions, 'file'>, ConfigSearchOptions {
  /** With no source and no file found, return `{ servers: {} }` instead of throwing. */
  optional?: boolean;
}

/**
 * Loads the configuration from a file path, an already-parsed object, or (with no source) the
 * first file found by discovery, and returns it normalized with `source` set.
 * Every failure is `McpToolsError('CONFIG_INVALID')` naming file, server and field.
 *
 * @example
 * const config = await loadConfig(); // ./mcptools.json, ./.mcp.json, … ~/.codex/config.toml
 * const other = await loadConfig('claude_desktop_config.json', { env: { TOKEN: 'x' } });
 */
export async function loadConfig(
  source?: string | object,
  options: LoadConfigOptions = {},
): Promise<McpToolsConfig> {
  const cwd = resolve(options.cwd ?? process.cwd());
  if (source !== undefined && typeof source !== 'string') return parseConfig(source, { ...options, cwd });
  let path = source === undefined ? undefined : resolve(cwd, source);
  if (path === undefined) {
    path = await findConfigFile({ ...options, cwd });
    if (path === undefined) {
      if (options.optional) return { servers: {} };
      const searched = configSearchPaths({ ...options, cwd });
      throw configError(
        { file: 'config' },
        `no configuration file found (looked for ${searched.map((candidate) => displayConfigPath(candidate, cwd)).join(', ')})`,
        { data: { searched } },
      );
    }
  }
  const value = await readConfigFile(path, displayConfigPath(path, cwd));
  return parseConfig(value, { ...options, cwd, file: path });
}
