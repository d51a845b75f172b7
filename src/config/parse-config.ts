import type { McpToolsConfig } from './config-types.js';
import { quickConfigValidator } from './quick-config-validator.js';
import { type ParseConfigOptions, readConfigValue } from './read-config-value.js';
import { zodConfigValidator } from './zod-config-validator.js';

export type { ParseConfigOptions } from './read-config-value.js';

const validator = quickConfigValidator(zodConfigValidator);

/**
 * Validates and normalizes an already-parsed configuration in any supported format (ours, Claude
 * Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex), interpolating `${VAR}`. Throws
 * `McpToolsError('CONFIG_INVALID')` naming the file, server and field, never a value.
 *
 * @example
 * const config = parseConfig({ mcpServers: { files: { command: 'npx', args: ['-y', 'server'] } } });
 */
export function parseConfig(value: unknown, options: ParseConfigOptions = {}): McpToolsConfig {
  return readConfigValue(value, options, validator);
}
