import { join } from 'node:path';
import { type HostEnvironment, homeOf } from './host-environment.js';

/**
 * The user-level mcptools configuration that `connect` points hosts at and `import` fills:
 * `$XDG_CONFIG_HOME/mcptools/mcptools.json`, else `~/.config/mcptools/mcptools.json` (beside
 * the OAuth vault and the pin file).
 */
export function userConfigPath(host: HostEnvironment): string {
  const base = host.env.XDG_CONFIG_HOME?.trim() ? host.env.XDG_CONFIG_HOME : join(homeOf(host), '.config');
  return join(base, 'mcptools', 'mcptools.json');
}
