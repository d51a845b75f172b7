/** Where a session held by another replica was found. */
export interface KnownOwner {
  url: string;
  profile: string;
}

/**
 * The owners of sessions this replica forwarded to, remembered so that a forwarded request costs
 * no Redis round trip. Never trusted alone: an owner that refuses the connection or answers 421
 * (it no longer holds the session) is forgotten and Redis is asked again. Bounded: past
 * `capacity`, the entry remembered first goes.
 */
export class OwnerCache {
  readonly #entries = new Map<string, KnownOwner>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: string): KnownOwner | undefined {
    return this.#entries.get(key);
  }

  remember(key: string, owner: KnownOwner): void {
    const known = this.#entries.get(key);
    if (known?.url === owner.url && known.profile === owner.profile) return;
    this.#entries.delete(key);
    this.#entries.set(key, owner);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
