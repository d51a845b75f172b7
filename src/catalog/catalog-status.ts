import { McpToolsError } from '../errors/mcp-tools-error.js';
import { type CatalogEntry, OFFICIAL_META_KEY } from './catalog-records.js';

/** A record's lifecycle in its registry; a record without one is `active`. */
export type CatalogStatus = 'active' | 'deprecated' | 'deleted';

/** The status of `entry` (`_meta["io.modelcontextprotocol.registry/official"].status`). */
export function catalogStatus(entry: CatalogEntry): CatalogStatus {
  return entry._meta?.[OFFICIAL_META_KEY]?.status ?? 'active';
}

/** The registry's message about the status, when it gives one. */
export function catalogStatusMessage(entry: CatalogEntry): string | undefined {
  const message = entry._meta?.[OFFICIAL_META_KEY]?.statusMessage;
  return typeof message === 'string' && message.trim() !== '' ? message.trim() : undefined;
}

/**
 * Refuses a `deleted` record (its publisher or the registry withdrew it: malware, a takeover) and
 * returns the warning a `deprecated` one carries, with the registry's message; `undefined` for an
 * active record.
 */
export function checkCatalogStatus(entry: CatalogEntry): string | undefined {
  const { name, version } = entry.server;
  const status = catalogStatus(entry);
  const message = catalogStatusMessage(entry);
  if (status === 'deleted')
    throw new McpToolsError(
      'PERMISSION_DENIED',
      `${name}@${version} is deleted in its registry and is not installed${message ? `: ${message}` : ''}`,
      { recoverable: false, data: { name, version, status } },
    );
  if (status === 'deprecated')
    return `${name}@${version} is deprecated in its registry${message ? `: ${message}` : ''}`;
  return undefined;
}
