/** At most this many verified tokens are remembered; the oldest is forgotten first. */
const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
  notBefore: number | undefined;
  /** When the entry is forgotten whatever `expiresAt` says (seconds since the epoch). */
  forgetAt: number;
}

/**
 * Verified tokens by digest, each until it expires (seconds since the epoch, like `exp`) or until
 * `maxAgeSeconds` after it was verified, whichever comes first: a token revoked at the
 * authorization server is asked about again within that time. A lookup checks the lifetime
 * again, so an entry is never served past `exp` (plus the skew) or before `nbf` (minus the skew).
 * Bounded: beyond `maxEntries` the oldest entry goes.
 */
export class VerifiedTokenCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;
  readonly #maxAgeSeconds: number;

  constructor(options: { maxAgeSeconds?: number; maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#maxAgeSeconds = options.maxAgeSeconds ?? Number.POSITIVE_INFINITY;
  }

  /** The value remembered for `key`, if it is valid at `now` (± `toleranceSeconds`). */
  get(key: string, now: number, toleranceSeconds: number): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt + toleranceSeconds < now || entry.forgetAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    if (entry.notBefore !== undefined && entry.notBefore - toleranceSeconds > now) return undefined;
    return entry.value;
  }

  /** Remembers `value` for `key` until `expiresAt`, and at most the cache's maximum age from now. */
  set(key: string, value: T, expiresAt: number, notBefore?: number): void {
    if (this.#maxAgeSeconds <= 0) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    const forgetAt = Date.now() / 1000 + this.#maxAgeSeconds;
    this.#entries.set(key, { value, expiresAt, notBefore, forgetAt });
  }

  /** When the token of `key`'s entry expires (its `exp`), if there is an entry. */
  expiry(key: string): number | undefined {
    return this.#entries.get(key)?.expiresAt;
  }

  get size(): number {
    return this.#entries.size;
  }
}
