import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The vault file: `$XDG_CONFIG_HOME/mcptools/oauth-vault.json`, else
 * `~/.config/mcptools/oauth-vault.json`.
 */
export function defaultVaultPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'mcptools', 'oauth-vault.json');
}
