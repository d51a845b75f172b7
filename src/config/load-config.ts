import { resolve } from 'node:path';
import { configError } from './config-error.js';
import { type ConfigSearchOptions, configSearchPaths } from './config-search-paths.js';
import type { McpToolsConfig } from './config-types.js';
import { displayConfigPath } from './display-config-path.js';
import { findConfigFile } from './find-config-file.js';
import { FullValidationNeeded, quickConfigValidator } from './quick-config-validator.js';
import { readConfigFile } from './read-config-file.js';
import { emitConfigWarning, type ParseConfigOptions, readConfigValue } from './read-config-value.js';

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
  if (source !== undefined && typeof source !== 'string')
    return parseQuicklyFirst(source, { ...options, cwd });
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
  return parseQuicklyFirst(value, { ...options, cwd, file: path });
}

/**
 * `parseConfig`, loading zod only when the quick validator cannot vouch for the value (an
 * unusual section, or an error to describe). Warnings of the quick attempt are held back and
 * given once, by whichever attempt decides.
 */
async function parseQuicklyFirst(value: unknown, options: ParseConfigOptions): Promise<McpToolsConfig> {
  const warnings: string[] = [];
  const warn = options.onWarning ?? emitConfigWarning;
  try {
    const config = readConfigValue(
      value,
      { ...options, onWarning: (message) => warnings.push(message) },
      quickConfigValidator(),
    );
    for (const message of warnings) warn(message);
    return config;
  } catch (error) {
    if (!(error instanceof FullValidationNeeded)) {
      for (const message of warnings) warn(message);
      throw error;
    }
  }
  const { parseConfig } = await import('./parse-config.js');
  return parseConfig(value, options);
}
