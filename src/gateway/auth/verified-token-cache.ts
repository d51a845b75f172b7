/** At most this many verified tokens are remembered; the oldest is forgotten first. */
const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
  notBefore: number | undefined;
}

/**
 * Verified tokens by digest, each until it expires (seconds since the epoch, like `exp`). A
 * lookup checks the lifetime again, so an entry is never served past `exp` (plus the skew) or
 * before `nbf` (minus the skew). Bounded: beyond `maxEntries` the oldest entry goes.
 */
export class VerifiedTokenCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;

  constructor(maxEntries = DEFAULT_MAX_ENTRIES) {
    this.#maxEntries = maxEntries;
  }

  /** The value remembered for `key`, if it is valid at `now` (± `toleranceSeconds`). */
  get(key: string, now: number, toleranceSeconds: number): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt + toleranceSeconds < now) {
      this.#entries.delete(key);
      return undefined;
    }
    if (entry.notBefore !== undefined && entry.notBefore - toleranceSeconds > now) return undefined;
    return entry.value;
  }

  /** Remembers `value` for `key` until `expiresAt`. */
  set(key: string, value: T, expiresAt: number, notBefore?: number): void {
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, expiresAt, notBefore });
  }

  /** When the entry of `key` expires (its `exp`), if there is one. */
  expiry(key: string): number | undefined {
    return this.#entries.get(key)?.expiresAt;
  }

  get size(): number {
    return this.#entries.size;
  }
}
