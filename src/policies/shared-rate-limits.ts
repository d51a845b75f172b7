import type { ToolRegistry } from '../registry/tool-registry.js';

/**
 * A token-bucket store shared by every replica of a cluster (Redis, in the gateway's cluster
 * mode): the configured rate limits of a registry take their tokens here instead of in the
 * process while one is set.
 */
export interface SharedRateLimitStore {
  /**
   * Takes one token of bucket `key` (`limit` tokens, refilled at `limit` per `windowMs`):
   * resolves `0` when taken, else the ms until one is available. Rejects when the store
   * cannot answer (the caller then falls back to its local bucket).
   */
  take(key: string, limit: number, windowMs: number): Promise<number>;
}

const stores = new WeakMap<ToolRegistry, SharedRateLimitStore>();

/**
 * Makes the configured rate limits of `registry` cluster-wide through `store`; returns the
 * function that makes them local again. Set by the gateway when it joins a cluster.
 */
export function shareRateLimits(registry: ToolRegistry, store: SharedRateLimitStore): () => void {
  stores.set(registry, store);
  return () => {
    if (stores.get(registry) === store) stores.delete(registry);
  };
}

/** The shared store of `registry`'s rate limits, if any (else they are local to the process). */
export function sharedRateLimitStore(registry: ToolRegistry): SharedRateLimitStore | undefined {
  return stores.get(registry);
}
