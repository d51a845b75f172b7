import { dirname, join } from 'node:path';
import { defaultVaultPath } from '../paths/default-vault-path.js';

/**
 * The pin file: `pins.json` beside the OAuth vault (`$XDG_CONFIG_HOME/mcptools/`, else
 * `~/.config/mcptools/`), so that what a person trusted and the credentials they gave live
 * together, owner-only.
 */
export function defaultPinsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(defaultVaultPath(env)), 'pins.json');
}
