import { join, resolve } from 'node:path';
import { stateDir as mcptoolsStateDir } from '../paths/state-dir.js';

/**
 * The root under which OpenClaw plugins loaded by mcptools keep their state (what
 * `api.runtime.state.resolveStateDir()` returns): `stateDir` when given, else
 * `$XDG_STATE_HOME/mcptools/openclaw`, else `~/.local/state/mcptools/openclaw`. Each plugin's
 * keyed and blob stores live below it in `plugins/<pluginId>/`.
 */
export function pluginStateRoot(stateDir?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (stateDir) return resolve(stateDir);
  return join(mcptoolsStateDir(env), 'openclaw');
}

/** The folder of one plugin's own stores: `<root>/plugins/<pluginId>`, the id made path-safe. */
export function pluginStateDir(root: string, pluginId: string): string {
  return join(root, 'plugins', safeSegment(pluginId));
}

/** A store namespace or plugin id as one path segment: no separators, no dot-only names. */
export function safeSegment(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return /^\.*$/.test(cleaned) ? `_${cleaned}` : cleaned;
}
