import { join } from 'node:path';
import { LOCK_FILE_NAME, readCatalogLock } from './catalog-lock.js';
import type { ServerConfig } from './config-types.js';

/**
 * Gives each stdio server of a configuration file its lock entry (`mcptools-lock.json` beside the
 * file), so that its start goes through the locked package runner. A server without one starts
 * as configured; a lock file that cannot be read stops the load (a lock ignored would be a lock
 * silently lifted).
 */
export function attachLocks(servers: Record<string, ServerConfig>, configDir: string): void {
  const file = join(configDir, LOCK_FILE_NAME);
  const lock = readCatalogLock(file);
  for (const [entry, locked] of Object.entries(lock.servers)) {
    const server = servers[entry];
    if (server?.type !== 'stdio' || locked.package.registryType === 'remote') continue;
    server.locked = { file, entry, package: locked.package };
  }
}
