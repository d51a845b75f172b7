import { McpToolsError } from '../errors/mcp-tools-error.js';
import { CatalogCache } from './catalog-cache.js';
import { CatalogClient, type CatalogClientOptions } from './catalog-client.js';
import type { CatalogEntry } from './catalog-records.js';
import type { CatalogSource } from './catalog-source.js';

/** A record and the registry it came from. */
export interface FoundEntry {
  entry: CatalogEntry;
  source: CatalogSource;
}

/** Options of {@link searchCatalogs} and {@link findCatalogEntry}. */
export interface CatalogLookupOptions extends Omit<CatalogClientOptions, 'cache'> {
  /** The cache folder (`<state>/catalog-cache`); unset, nothing is cached. */
  cacheDir?: string;
}

function clients(sources: readonly CatalogSource[], options: CatalogLookupOptions): CatalogClient[] {
  const cache = options.cacheDir === undefined ? undefined : new CatalogCache(options.cacheDir);
  return sources.map((source) => new CatalogClient(source, { ...options, cache }));
}

/**
 * The latest version of every server whose name contains `text`, across `sources` in order; a
 * name found in an earlier registry hides the same name in a later one (the configuration's order
 * is its precedence). Follows cursors up to `limit` records per registry.
 */
export async function searchCatalogs(
  sources: readonly CatalogSource[],
  text: string,
  options: CatalogLookupOptions & { limit?: number } = {},
): Promise<FoundEntry[]> {
  const limit = options.limit ?? 100;
  const found = new Map<string, FoundEntry>();
  for (const client of clients(sources, options)) {
    let cursor: string | undefined;
    let seen = 0;
    do {
      const page = await client.list({
        search: text,
        version: 'latest',
        limit: Math.min(limit, 100),
        cursor,
      });
      for (const entry of page.servers) {
        seen++;
        if (!found.has(entry.server.name)) found.set(entry.server.name, { entry, source: client.source });
      }
      cursor = page.metadata?.nextCursor || undefined;
    } while (cursor !== undefined && seen < limit);
  }
  return [...found.values()];
}

/**
 * `name` at `version` (default `latest`) from the first registry of `sources` that has it, or an
 * error naming every registry asked.
 */
export async function findCatalogEntry(
  sources: readonly CatalogSource[],
  name: string,
  version = 'latest',
  options: CatalogLookupOptions = {},
): Promise<FoundEntry> {
  for (const client of clients(sources, options)) {
    const entry = await client.version(name, version);
    if (entry !== undefined) return { entry, source: client.source };
  }
  throw new McpToolsError(
    'INVALID_ARGUMENTS',
    `${version === 'latest' ? name : `${name}@${version}`} is not in ${sources.map((source) => source.url).join(', ')}`,
    { recoverable: false },
  );
}

/** Every version of `name` from the first registry that knows it, newest first; `undefined` if none does. */
export async function catalogVersions(
  sources: readonly CatalogSource[],
  name: string,
  options: CatalogLookupOptions = {},
): Promise<{ entries: CatalogEntry[]; source: CatalogSource } | undefined> {
  for (const client of clients(sources, options)) {
    const entries = await client.versions(name);
    if (entries !== undefined) return { entries, source: client.source };
  }
  return undefined;
}
