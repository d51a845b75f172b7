import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { LockedStart, ServerConfig } from './config-types.js';

/** The lock file's name, beside the configuration file it locks (`mcptools add` writes it). */
export const LOCK_FILE_NAME = 'mcptools-lock.json';

/**
 * Gives each stdio server of a configuration file its lock entry (`mcptools-lock.json` beside the
 * file), so that its start goes through the locked package runner. A server without one starts
 * as configured; a lock file that cannot be read stops the load (a lock ignored would be a lock
 * silently lifted).
 */
export function attachLocks(servers: Record<string, ServerConfig>, configDir: string): void {
  const file = join(configDir, LOCK_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  let locked: unknown;
  try {
    locked = (JSON.parse(text) as { servers?: unknown }).servers;
  } catch {
    throw new McpToolsError('CONFIG_INVALID', `the lock file ${file} is not valid JSON`);
  }
  if (typeof locked !== 'object' || locked === null)
    throw new McpToolsError('CONFIG_INVALID', `the lock file ${file} has no "servers" object`);
  for (const [entry, lock] of Object.entries(
    locked as Record<string, { package?: LockedStart['package'] }>,
  )) {
    const server = servers[entry];
    const pkg = lock?.package;
    if (server?.type !== 'stdio' || typeof pkg?.registryType !== 'string' || pkg.registryType === 'remote')
      continue;
    server.locked = { file, entry, package: pkg };
  }
}
