import { isDeepStrictEqual } from 'node:util';
import type { ServerConfig } from '../config/config-types.js';
import type { McpChangingHub } from './hub-types.js';

/** How two configurations' servers differ, by name. */
export interface ServerChanges {
  added: string[];
  removed: string[];
  /** In both, configured differently: reconnected. */
  changed: string[];
  /** In both, configured alike: their connections and calls are left alone. */
  unchanged: string[];
}

/** The difference between the servers of two configurations (deep equality of each entry). */
export function diffServers(
  before: Record<string, ServerConfig>,
  after: Record<string, ServerConfig>,
): ServerChanges {
  const changes: ServerChanges = { added: [], removed: [], changed: [], unchanged: [] };
  for (const name of Object.keys(before)) if (!(name in after)) changes.removed.push(name);
  for (const [name, server] of Object.entries(after)) {
    if (!(name in before)) changes.added.push(name);
    else if (isDeepStrictEqual(before[name], server)) changes.unchanged.push(name);
    else changes.changed.push(name);
  }
  return changes;
}

/**
 * Applies the difference between `before` and `after` to a running hub: removed servers close
 * (their tools go first, so no new call reaches them), changed servers close and connect again
 * with their new entry, added servers connect; unchanged servers are not touched. Resolves
 * once every new connect has connected or failed (a failure lands in its status, as at start).
 */
export async function applyServerChanges(
  hub: McpChangingHub,
  before: Record<string, ServerConfig>,
  after: Record<string, ServerConfig>,
  signal?: AbortSignal,
): Promise<ServerChanges> {
  const changes = diffServers(before, after);
  await Promise.all([...changes.removed, ...changes.changed].map((name) => hub.removeServer(name)));
  await Promise.all(
    [...changes.changed, ...changes.added].map((name) => hub.addServer(name, after[name]!, signal)),
  );
  return changes;
}
