import type { TokenStore, VaultEntry, VaultUpdate } from './token-store.js';

/**
 * A {@link TokenStore} in memory, for hosts that keep credentials elsewhere or not at all, and
 * for tests. Updates run one at a time, as in the vault file.
 */
export class MemoryTokenStore implements TokenStore {
  readonly #entries = new Map<string, VaultEntry>();
  #queue: Promise<unknown> = Promise.resolve();

  async get(serverUrl: string): Promise<VaultEntry | undefined> {
    const entry = this.#entries.get(serverUrl);
    return entry === undefined ? undefined : structuredClone(entry);
  }

  update(serverUrl: string, update: VaultUpdate): Promise<VaultEntry | undefined> {
    const run = this.#queue.then(async () => {
      const next = await update(await this.get(serverUrl));
      if (next === undefined) this.#entries.delete(serverUrl);
      else this.#entries.set(serverUrl, structuredClone(next));
      return next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async list(): Promise<VaultEntry[]> {
    return [...this.#entries.values()].map((entry) => structuredClone(entry));
  }
}
