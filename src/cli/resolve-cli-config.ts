import type { McpToolsConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { defaultConfig } from './demo/default-config.js';

/** The configuration a command runs with, and whether it is the built-in default. */
export interface CliConfig {
  config: McpToolsConfig;
  /** `true` for the built-in default (demo servers, native example tools). */
  builtIn: boolean;
}

/**
 * `--config FILE` if given, else the first file discovery finds, else the built-in default —
 * announced in one line on stderr so a user knows which servers they are talking to.
 */
export async function resolveCliConfig(options: {
  config?: string;
  demo?: boolean;
  /** `false` for commands that only show the configuration (no sandbox directory is created). */
  createSandbox?: boolean;
}): Promise<CliConfig> {
  const builtIn = () =>
    defaultConfig({
      createSandbox: options.createSandbox !== false,
      onNpx: (packages) =>
        process.stderr.write(
          `mcptools: ${packages.join(', ')} not installed here; running through npx -y (downloaded on first use)\n`,
        ),
    });
  if (options.demo) return { config: builtIn(), builtIn: true };
  if (options.config) return { config: await loadConfig(options.config), builtIn: false };
  const found = await loadConfig(undefined, { optional: true });
  if (found.source !== undefined) return { config: found, builtIn: false };
  process.stderr.write(
    'mcptools: no configuration file found; using the built-in default (see `mcptools config`)\n',
  );
  return { config: builtIn(), builtIn: true };
}
