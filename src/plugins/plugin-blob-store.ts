import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PluginStateStoreError } from './plugin-keyed-store.js';
import { safeSegment } from './plugin-state-dir.js';

/** Options of `runtime.state.openBlobStore` (OpenClaw's shape). */
export interface BlobStoreOptions {
  namespace: string;
  maxEntries: number;
  maxBytesPerEntry: number;
  maxBytesPerNamespace: number;
  overflowPolicy?: 'evict-oldest' | 'reject-new';
  defaultTtlMs?: number;
}

interface BlobInfo {
  key: string;
  metadata: unknown;
  sizeBytes: number;
  createdAt: number;
  expiresAt?: number;
}

const fileOf = (key: string) => `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.bin`;

/**
 * The blob store (`openBlobStore`): bytes in one file per key and an `index.json` of their
 * metadata, in `<pluginDir>/blobs/<namespace>/`. Limits are enforced on write: an entry
 * over `maxBytesPerEntry` is refused; past `maxEntries` or `maxBytesPerNamespace` the oldest
 * entries go, or the new one is refused under `reject-new`.
 */
export function openBlobStore(pluginDir: string, options: BlobStoreOptions) {
  if (!options || typeof options.namespace !== 'string' || options.namespace.length === 0) {
    throw new PluginStateStoreError('openBlobStore needs a namespace', 'PLUGIN_STATE_INVALID_INPUT', 'open');
  }
  const dir = join(pluginDir, 'blobs', safeSegment(options.namespace));
  const indexFile = join(dir, 'index.json');
  // One queue per store: index reads and writes never interleave.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function readIndex(): Promise<BlobInfo[]> {
    let raw: string;
    try {
      raw = await readFile(indexFile, 'utf8');
    } catch {
      return [];
    }
    try {
      return JSON.parse(raw) as BlobInfo[];
    } catch {
      throw new PluginStateStoreError(
        `Blob index ${indexFile} is not valid JSON`,
        'PLUGIN_STATE_CORRUPT',
        'open',
        indexFile,
      );
    }
  }

  async function writeIndex(entries: BlobInfo[]): Promise<void> {
    await mkdir(dir, { recursive: true });
    const temporary = `${indexFile}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(entries));
    await rename(temporary, indexFile);
  }

  const isLive = (entry: BlobInfo, now: number) => entry.expiresAt === undefined || entry.expiresAt > now;

  async function put(
    key: string,
    bytes: Uint8Array,
    metadata: unknown,
    ttlMs: number | undefined,
    onlyIfAbsent: boolean,
  ) {
    if (!(bytes instanceof Uint8Array)) {
      throw new PluginStateStoreError(
        'A blob must be a Uint8Array',
        'PLUGIN_STATE_INVALID_INPUT',
        'register',
      );
    }
    if (bytes.byteLength > options.maxBytesPerEntry) {
      throw new PluginStateStoreError(
        `Blob "${key}" has ${bytes.byteLength} bytes, over the namespace's ${options.maxBytesPerEntry} per entry`,
        'PLUGIN_STATE_LIMIT_EXCEEDED',
        'register',
      );
    }
    const now = Date.now();
    let entries = (await readIndex()).filter((entry) => isLive(entry, now));
    if (onlyIfAbsent && entries.some((entry) => entry.key === key)) return false;
    entries = entries.filter((entry) => entry.key !== key);
    const evicted: BlobInfo[] = [];
    const over = () =>
      entries.length + 1 > options.maxEntries ||
      entries.reduce((sum, entry) => sum + entry.sizeBytes, bytes.byteLength) > options.maxBytesPerNamespace;
    if (over() && options.overflowPolicy === 'reject-new') {
      throw new PluginStateStoreError(
        `Blob namespace "${options.namespace}" is full`,
        'PLUGIN_STATE_LIMIT_EXCEEDED',
        'register',
      );
    }
    entries.sort((left, right) => left.createdAt - right.createdAt);
    while (entries.length > 0 && over()) evicted.push(entries.shift()!);
    const ttl = ttlMs ?? options.defaultTtlMs;
    entries.push({
      key,
      metadata,
      sizeBytes: bytes.byteLength,
      createdAt: now,
      ...(ttl !== undefined ? { expiresAt: now + ttl } : {}),
    });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, fileOf(key)), bytes);
    await writeIndex(entries);
    await Promise.all(evicted.map((entry) => rm(join(dir, fileOf(entry.key)), { force: true })));
    return true;
  }

  async function removeWhere(test: (entry: BlobInfo) => boolean): Promise<BlobInfo[]> {
    const entries = await readIndex();
    const removed = entries.filter(test);
    if (removed.length === 0) return [];
    await writeIndex(entries.filter((entry) => !test(entry)));
    await Promise.all(removed.map((entry) => rm(join(dir, fileOf(entry.key)), { force: true })));
    return removed;
  }

  return {
    register: (key: string, bytes: Uint8Array, metadata: unknown, opts?: { ttlMs?: number }) =>
      serial(async () => {
        await put(key, bytes, metadata, opts?.ttlMs, false);
      }),
    registerIfAbsent: (key: string, bytes: Uint8Array, metadata: unknown, opts?: { ttlMs?: number }) =>
      serial(() => put(key, bytes, metadata, opts?.ttlMs, true)),
    lookup: (key: string) =>
      serial(async () => {
        const entry = (await readIndex()).find(
          (candidate) => candidate.key === key && isLive(candidate, Date.now()),
        );
        if (!entry) return undefined;
        const bytes = await readFile(join(dir, fileOf(key))).catch(() => undefined);
        return bytes ? { ...entry, bytes: new Uint8Array(bytes) } : undefined;
      }),
    entries: () => serial(async () => (await readIndex()).filter((entry) => isLive(entry, Date.now()))),
    delete: (key: string) => serial(async () => (await removeWhere((entry) => entry.key === key)).length > 0),
    deleteExpiredKey: (key: string) =>
      serial(async () => (await removeWhere((entry) => entry.key === key && !isLive(entry, Date.now())))[0]),
    deleteExpired: () => serial(() => removeWhere((entry) => !isLive(entry, Date.now()))),
    clear: () =>
      serial(async () => {
        await rm(dir, { recursive: true, force: true });
      }),
  };
}
