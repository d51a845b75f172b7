import {
  type CacheEntry,
  type CacheKey,
  InMemoryResponseCacheStore,
  type ResponseCacheStore,
} from '@modelcontextprotocol/client';

/** What the SDK writes to a store. */
type WrittenEntry = Omit<CacheEntry, 'stamp'>;

/**
 * Whether the SDK could serve `entry`: it does while `expiresAt` is ahead of its clock
 * (`Date.now`). Every result is written with an expiry, now plus the server's `ttlMs` or else
 * the client's default of 0, so one without a `ttlMs` is stale as it is written.
 */
function servable(entry: WrittenEntry): boolean {
  return entry.expiresAt !== undefined && entry.expiresAt > Date.now();
}

/**
 * Whether to keep `entry`. A tool list only when it declares a header `callTool` mirrors (over
 * 2026-07-28): mcptools asks for tool lists afresh every time, so only `callTool` reads one back.
 */
function kept(key: CacheKey, entry: WrittenEntry): boolean {
  return key.method === 'tools/list' ? entry.value.includes('x-mcp-header') : servable(entry);
}

/**
 * The response cache of one SDK `Client` mcptools opens: it holds only what can be read back.
 *
 * The SDK's default store keeps every list a client fetched as JSON text until the client
 * closes, but serves a result only while it is fresh, and only one the server gave a `ttlMs`
 * is fresh at all. The one read regardless is `tools/list`: `callTool` looks up a tool's
 * output schema and `x-mcp-header` declarations in it. mcptools holds every tool's definition
 * already, lists tools afresh every time, and hands a tool with an output schema to `callTool`
 * itself (`toolDefinition`), so a tool list is kept only when it declares a header to mirror.
 * Any other result a server gave a lifetime is kept as before, bounded as before, in the SDK's
 * own store, made on the first such result: a server that gives none costs no store.
 *
 * One per client, never shared (partitions are per server identity, and two servers may report
 * the same one); it goes with its client.
 */
export class ServableResponseStore implements ResponseCacheStore {
  #store: InMemoryResponseCacheStore | undefined;

  get(key: CacheKey): CacheEntry | undefined {
    return this.#store?.get(key);
  }

  set(key: CacheKey, entry: WrittenEntry): number {
    if (kept(key, entry)) {
      this.#store ??= new InMemoryResponseCacheStore();
      return this.#store.set(key, entry);
    }
    // Nothing will read it, and what was held under the key is out of date.
    this.#store?.delete(key);
    return 0;
  }

  delete(key: CacheKey): void {
    this.#store?.delete(key);
  }

  evict(method: string): void {
    this.#store?.evict(method);
  }

  clear(): void {
    this.#store?.clear();
  }

  /** How many entries are held (for tests). */
  get size(): number {
    return this.#store?.size ?? 0;
  }
}
