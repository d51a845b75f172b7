/**
 * At most `limit` tasks run at once; the others wait their turn in order. The gateway's
 * introspection requests pass through one, so a flood of unknown tokens costs the authorization
 * server at most `limit` requests in flight.
 */
export class ConcurrencyGate {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, Math.floor(limit));
  }

  /** Runs `task` once fewer than `limit` others run. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      // The slot passes to the next waiter as it is, or is given back.
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#running--;
    }
  }
}
