import { existsSync } from 'node:fs';
import type { McpToolsConfig } from '../config/config-types.js';
import type { PinsConfig } from '../config/pins-config.js';
import { defaultPinsPath } from './default-pins-path.js';

/**
 * The pins a CLI command (the gateway included) runs with: the configuration's `pins`, else the
 * default pin file's when that file exists (someone pinned before: `enforce`), else none. A
 * built-in default session never pins (its demo servers are not anyone's review).
 */
export function cliPins(config: McpToolsConfig, builtIn: boolean): PinsConfig | undefined {
  if (config.pins !== undefined) return config.pins;
  if (builtIn) return undefined;
  const file = defaultPinsPath();
  return existsSync(file) ? { file } : undefined;
}

/** The pin file a `mcptools pins` command reads and writes: `--file`, else the configuration's, else the default. */
export function cliPinsFile(config: McpToolsConfig | undefined, explicit: string | undefined): string {
  return explicit ?? config?.pins?.file ?? defaultPinsPath();
}
