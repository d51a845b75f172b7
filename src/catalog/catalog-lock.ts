import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOCK_FILE_NAME } from '../config/attach-locks.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { writeFileAtomically } from '../paths/write-file-atomically.js';

export { LOCK_FILE_NAME };

/** One npm package of a locked dependency tree, as npm's own lockfile records it. */
export interface LockedNpmModule {
  version: string;
  resolved?: string;
  integrity?: string;
  bin?: Record<string, string> | string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  license?: string;
  engines?: Record<string, string> | string[];
}

/**
 * What was installed for one entry, by package type. `integrity` is what a start is checked
 * against: npm's `dist.integrity` (with every dependency's in `modules`), the MCPB file's SHA-256,
 * the OCI image digest; PyPI and NuGet pin the version only (the registry record carries no hash).
 */
export type LockedPackage =
  | {
      registryType: 'npm';
      identifier: string;
      version: string;
      registryBaseUrl?: string;
      integrity: string;
      /** The whole tree, keyed as npm's lockfile does (`node_modules/<name>`), the package included. */
      modules: Record<string, LockedNpmModule>;
    }
  | { registryType: 'mcpb'; identifier: string; fileSha256: string; integrity: string }
  | { registryType: 'oci'; identifier: string; digest: string; integrity: string }
  | { registryType: 'pypi' | 'nuget'; identifier: string; version: string; registryBaseUrl?: string }
  | { registryType: 'remote'; transport: 'streamable-http' | 'sse'; url: string };

/** One locked entry. */
export interface LockEntry {
  /** The registry the record came from. */
  registry: string;
  /** The server's name in it. */
  name: string;
  /** The record's version (never `latest`). */
  version: string;
  package: LockedPackage;
  /**
   * The values the entry was added with, by input key, as written in the configuration: clear
   * for plain values, a `${vault:…}` reference for secrets (never a secret itself).
   */
  inputs: Record<string, string>;
  /** When it was added or last updated. */
  lockedAt: string;
}

/** The lock file's content. */
export interface CatalogLock {
  lockfileVersion: 1;
  servers: Record<string, LockEntry>;
}

/** The lock file beside `configFile`. */
export function lockFileFor(configFile: string): string {
  return join(dirname(configFile), LOCK_FILE_NAME);
}

/** Reads a lock file (absent: empty). A file that is not a lock is refused with its path. */
export function readCatalogLock(path: string): CatalogLock {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lockfileVersion: 1, servers: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new McpToolsError('CONFIG_INVALID', `the lock file ${path} is not valid JSON`);
  }
  const servers = (parsed as { servers?: unknown } | null)?.servers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new McpToolsError('CONFIG_INVALID', `the lock file ${path} has no "servers" object`);
  for (const [entry, value] of Object.entries(servers as Record<string, unknown>)) {
    const lock = value as Partial<LockEntry> | null;
    if (
      typeof lock?.name !== 'string' ||
      typeof lock.version !== 'string' ||
      typeof lock.package?.registryType !== 'string'
    )
      throw new McpToolsError(
        'CONFIG_INVALID',
        `the lock file ${path}: servers.${entry} needs "name", "version" and "package"`,
      );
  }
  return { lockfileVersion: 1, servers: { ...(servers as Record<string, LockEntry>) } };
}

/** Changes the lock file: read, `change`, written through a temporary file renamed over it. */
export async function updateCatalogLock(
  path: string,
  change: (lock: CatalogLock) => void,
): Promise<CatalogLock> {
  // Loaded by the first write: a configuration read with its lock needs none of it.
  const { mkdir } = await import('node:fs/promises');
  const lock = readCatalogLock(path);
  change(lock);
  await mkdir(dirname(path), { recursive: true });
  const sorted: CatalogLock = {
    lockfileVersion: 1,
    servers: Object.fromEntries(Object.entries(lock.servers).sort(([a], [b]) => a.localeCompare(b))),
  };
  await writeFileAtomically(
    path,
    `${JSON.stringify(sorted, null, 2)}
`,
    0o644,
  );
  return sorted;
}
