/**
 * Token buckets under string keys: `limit` tokens, refilled continuously at `limit` per
 * `windowMs`. Local to the process (cluster-wide buckets: `src/cluster/redis-rate-limits.ts`).
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #limit: number;
  readonly #perMs: number;
  readonly #now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.#limit = limit;
    this.#perMs = limit / windowMs;
    this.#now = now;
  }

  /** Takes one token for `key`: `0` when taken, else the ms until one is available. */
  take(key: string): number {
    const now = this.#now();
    if (this.#buckets.size >= MAX_KEYS && !this.#buckets.has(key)) this.#prune(now);
    const bucket = this.#buckets.get(key) ?? { tokens: this.#limit, at: now };
    bucket.tokens = Math.min(this.#limit, bucket.tokens + (now - bucket.at) * this.#perMs);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.#perMs);
  }

  /** Forgets buckets that have refilled (they equal a new one). */
  #prune(now: number): void {
    for (const [key, bucket] of this.#buckets)
      if (bucket.tokens + (now - bucket.at) * this.#perMs >= this.#limit) this.#buckets.delete(key);
  }
}

/** Keys kept before full buckets are forgotten (principals come and go). */
const MAX_KEYS = 10_000;
