import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * The folder mcptools keeps state in: `$XDG_STATE_HOME/mcptools`, else
 * `~/.local/state/mcptools`. XDG says a relative `XDG_STATE_HOME` is invalid and must be
 * ignored.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'mcptools');
}
