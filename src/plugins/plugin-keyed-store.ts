import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { safeSegment } from './plugin-state-dir.js';

/** Options of `runtime.state.openKeyedStore` / `openSyncKeyedStore` (OpenClaw's shape). */
export interface KeyedStoreOptions {
  namespace: string;
  /** Bounded stores hold at most this many live entries. */
  maxEntries?: number;
  /** `retained` stores have no entry limit. */
  retention?: 'bounded' | 'retained';
  overflowPolicy?: 'evict-oldest' | 'reject-new';
  defaultTtlMs?: number;
}

/** One stored entry, as `entries()` lists it. */
export interface KeyedStoreEntry<T = unknown> {
  key: string;
  value: T;
  createdAt: number;
  expiresAt?: number;
}

/** The error a store throws, with OpenClaw's `code` and `operation`. */
export class PluginStateStoreError extends Error {
  constructor(
    message: string,
    readonly code: 'PLUGIN_STATE_LIMIT_EXCEEDED' | 'PLUGIN_STATE_INVALID_INPUT' | 'PLUGIN_STATE_CORRUPT',
    readonly operation: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'PluginStateStoreError';
  }
}

/** One namespace's entries in memory, written through to `<dir>/keyed/<namespace>.json`. */
class KeyedFile {
  private entries: Map<string, KeyedStoreEntry>;

  constructor(readonly file: string) {
    this.entries = new Map();
    let raw: string | undefined;
    try {
      raw = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    try {
      for (const entry of JSON.parse(raw) as KeyedStoreEntry[]) this.entries.set(entry.key, entry);
    } catch {
      throw new PluginStateStoreError(
        `Plugin state file ${file} is not valid JSON`,
        'PLUGIN_STATE_CORRUPT',
        'open',
        file,
      );
    }
  }

  live(key: string, now = Date.now()): KeyedStoreEntry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  all(): KeyedStoreEntry[] {
    const now = Date.now();
    return [...this.entries.keys()].map((key) => this.live(key, now)).filter((entry) => entry !== undefined);
  }

  set(key: string, value: unknown, options: KeyedStoreOptions, ttlMs?: number): void {
    if (typeof key !== 'string' || key.length === 0) {
      throw new PluginStateStoreError(
        'A state key must be a non-empty string',
        'PLUGIN_STATE_INVALID_INPUT',
        'register',
      );
    }
    // Values are stored as JSON, as OpenClaw's own store does: a value JSON cannot hold is refused now.
    const stored = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
    const now = Date.now();
    const limit =
      options.retention === 'retained'
        ? Number.POSITIVE_INFINITY
        : (options.maxEntries ?? Number.POSITIVE_INFINITY);
    if (!this.live(key, now)) {
      const live = this.all();
      if (live.length >= limit) {
        if (options.overflowPolicy === 'reject-new') {
          throw new PluginStateStoreError(
            `Plugin state namespace "${options.namespace}" is full (${limit} entries)`,
            'PLUGIN_STATE_LIMIT_EXCEEDED',
            'register',
          );
        }
        const oldest = live
          .sort((left, right) => left.createdAt - right.createdAt)
          .slice(0, live.length - limit + 1);
        for (const entry of oldest) this.entries.delete(entry.key);
      }
    }
    const ttl = ttlMs ?? options.defaultTtlMs;
    this.entries.set(key, {
      key,
      value: stored,
      createdAt: now,
      ...(ttl !== undefined ? { expiresAt: now + ttl } : {}),
    });
    this.save();
  }

  remove(key: string): boolean {
    const existed = this.live(key) !== undefined;
    this.entries.delete(key);
    if (existed) this.save();
    return existed;
  }

  clear(): void {
    this.entries.clear();
    this.save();
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.all()));
    renameSync(temporary, this.file);
  }
}

/** Open namespaces, so that every store opened on one namespace sees the same entries. */
const openFiles = new Map<string, KeyedFile>();

function keyedFile(pluginDir: string, options: KeyedStoreOptions): KeyedFile {
  if (!options || typeof options.namespace !== 'string' || options.namespace.length === 0) {
    throw new PluginStateStoreError('openKeyedStore needs a namespace', 'PLUGIN_STATE_INVALID_INPUT', 'open');
  }
  const file = join(pluginDir, 'keyed', `${safeSegment(options.namespace)}.json`);
  let opened = openFiles.get(file);
  if (!opened) {
    opened = new KeyedFile(file);
    openFiles.set(file, opened);
  }
  return opened;
}

/** The synchronous store (`openSyncKeyedStore`): one JSON file per namespace in the plugin's folder. */
export function openSyncKeyedStore(pluginDir: string, options: KeyedStoreOptions) {
  const file = keyedFile(pluginDir, options);
  const lookup = (key: string) => file.live(key)?.value;
  const register = (key: string, value: unknown, opts?: { ttlMs?: number }) =>
    file.set(key, value, options, opts?.ttlMs);
  return {
    register,
    registerIfAbsent(key: string, value: unknown, opts?: { ttlMs?: number }): boolean {
      if (file.live(key)) return false;
      register(key, value, opts);
      return true;
    },
    update(key: string, updateValue: (current: unknown) => unknown, opts?: { ttlMs?: number }): boolean {
      const next = updateValue(lookup(key));
      if (next === undefined) return false;
      register(key, next, opts);
      return true;
    },
    deleteIf(key: string, predicate: (current: unknown) => boolean): boolean {
      const entry = file.live(key);
      return entry !== undefined && predicate(entry.value) ? file.remove(key) : false;
    },
    deleteIfEqual(key: string, expected: string | number | boolean | null): boolean {
      const entry = file.live(key);
      return entry !== undefined && entry.value === expected ? file.remove(key) : false;
    },
    lookup,
    consume(key: string): unknown {
      const value = lookup(key);
      file.remove(key);
      return value;
    },
    delete: (key: string) => file.remove(key),
    entries: () => file.all().map((entry) => ({ ...entry })),
    entriesInKeyRange(range: {
      keyStartInclusive: string;
      keyEndExclusive: string;
      limit: number;
      order?: 'asc' | 'desc';
    }) {
      const inRange = file
        .all()
        .filter((entry) => entry.key >= range.keyStartInclusive && entry.key < range.keyEndExclusive)
        .sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
      if (range.order === 'desc') inRange.reverse();
      return inRange.slice(0, range.limit).map((entry) => ({ ...entry }));
    },
    count: () => file.all().length,
    clear: () => file.clear(),
  };
}

/** The asynchronous store (`openKeyedStore`): the same file store, every operation answered as a promise. */
export function openKeyedStore(pluginDir: string, options: KeyedStoreOptions) {
  const sync = openSyncKeyedStore(pluginDir, options);
  const asynchronous: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(sync)) {
    asynchronous[name] = async (...args: unknown[]) =>
      (operation as (...inner: unknown[]) => unknown)(...args);
  }
  return asynchronous;
}
