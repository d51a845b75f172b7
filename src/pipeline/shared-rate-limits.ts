/**
 * A token-bucket store shared by every replica of a cluster (Redis, in the gateway's cluster
 * mode): the configured rate limits of a hub take their tokens here instead of in the process
 * while one is set (`McpToolHub.shareRateLimits`).
 */
export interface SharedRateLimitStore {
  /**
   * Takes one token of bucket `key` (`limit` tokens, refilled at `limit` per `windowMs`):
   * resolves `0` when taken, else the ms until one is available. Rejects when the store
   * cannot answer (the caller then falls back to its local bucket).
   */
  take(key: string, limit: number, windowMs: number): Promise<number>;
}
