import type { McpToolsConfig } from '../config/config-types.js';
import { displayConfigPath } from '../config/display-config-path.js';
import { findConfigFile } from '../config/find-config-file.js';
import { loadConfig } from '../config/load-config.js';
import { defaultConfig } from './demo/default-config.js';
import { warnOnStderr } from './warn-on-stderr.js';

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
  /** `false` for commands that only show the configuration (no workspace folder is created). */
  createWorkspace?: boolean;
  /** `project`: discovery skips other hosts' user-level files (`serve`, docs/gateway-recursion.md). */
  discovery?: 'project' | 'all';
}): Promise<CliConfig> {
  const builtIn = () =>
    defaultConfig({
      createWorkspace: options.createWorkspace !== false,
      onNpx: (packages) =>
        process.stderr.write(
          `mcptools: ${packages.join(', ')} not installed here; running through npx -y (downloaded on first use)\n`,
        ),
    });
  if (options.demo) return { config: builtIn(), builtIn: true };
  if (options.config)
    return { config: await loadConfig(options.config, { onWarning: warnOnStderr }), builtIn: false };
  const scope = options.discovery ?? 'all';
  const found = await loadConfig(undefined, { optional: true, scope, onWarning: warnOnStderr });
  if (found.source !== undefined) return { config: found, builtIn: false };
  // `serve` does not read other hosts' user files on its own: say which one it left alone.
  const userFile = scope === 'project' ? await findConfigFile() : undefined;
  process.stderr.write(
    userFile === undefined
      ? 'mcptools: no configuration file found; using the built-in default (see `mcptools config`)\n'
      : `mcptools: no project configuration (mcptools.json, .mcp.json, …); using the built-in default. serve does not read ${displayConfigPath(userFile, process.cwd())} on its own (it is where hosts register mcptools itself): pass --config to serve it\n`,
  );
  return { config: builtIn(), builtIn: true };
}
