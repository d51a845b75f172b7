import { existsSync } from 'node:fs';
import { lockFileFor, readCatalogLock } from './catalog-lock.js';
import { type CatalogLookupOptions, findCatalogEntry } from './catalog-lookup.js';
import type { CatalogSource } from './catalog-source.js';
import { type CatalogStatus, catalogStatus, catalogStatusMessage } from './catalog-status.js';

/** What a locked entry's registry says of it now. */
export interface LockedStatus {
  entry: string;
  name: string;
  version: string;
  registry: string;
  /** `unknown` when the registry could not be asked (the reason in `message`). */
  status: CatalogStatus | 'unknown';
  message?: string;
}

/**
 * The status each entry locked beside `configFile` has in its registry now, so that `doctor`
 * flags an installed server its registry has since deleted (or deprecated). `sources` give the
 * headers of a configured registry; one not configured any more is asked without.
 */
export async function lockedStatuses(
  configFile: string,
  sources: readonly CatalogSource[],
  options: CatalogLookupOptions = {},
): Promise<LockedStatus[]> {
  const file = lockFileFor(configFile);
  if (!existsSync(file)) return [];
  const statuses: LockedStatus[] = [];
  for (const [entry, lock] of Object.entries(readCatalogLock(file).servers)) {
    const source = sources.find((candidate) => candidate.url === lock.registry) ?? { url: lock.registry };
    const base = { entry, name: lock.name, version: lock.version, registry: lock.registry };
    try {
      const found = await findCatalogEntry([source], lock.name, lock.version, options);
      const message = catalogStatusMessage(found.entry);
      statuses.push({ ...base, status: catalogStatus(found.entry), ...(message ? { message } : {}) });
    } catch (error) {
      statuses.push({ ...base, status: 'unknown', message: (error as Error).message });
    }
  }
  return statuses;
}
