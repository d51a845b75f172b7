import { DEFAULT_CATALOG_URL } from './default-catalog-url.js';

/** One registry mcptools reads (`registries[]` in `mcptools.json`): its base URL and request headers. */
export interface CatalogSource {
  /** The base URL; the v0.1 paths (`/v0.1/servers`) are appended to it. */
  url: string;
  /** Sent with every request (a token for a private registry); already interpolated, so secret. */
  headers?: Record<string, string>;
}

/**
 * The registries to read, in order: `MCPTOOLS_REGISTRY` alone for one run (no headers), else the
 * configuration's `registries`, else the official registry.
 */
export function catalogSources(
  configured: readonly CatalogSource[] | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CatalogSource[] {
  const override = env.MCPTOOLS_REGISTRY?.trim();
  if (override) return [{ url: override }];
  if (configured !== undefined && configured.length > 0) return configured.map((source) => ({ ...source }));
  return [{ url: DEFAULT_CATALOG_URL }];
}
