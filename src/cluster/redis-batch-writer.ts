import type { RedisConnection } from './redis-connection.js';

/** How long a write may wait for others to leave with it. */
const BATCH_MS = 5;

/**
 * Writes nobody waits for (a session's events), sent to Redis together: at most
 * {@link BATCH_MS} after the first of them, in the order given, in one write (so Redis wakes,
 * and answers, once for them all rather than once per call). A command is built when it leaves
 * (`build`), so the work of serializing it is not spent before the answer that caused it.
 */
export class RedisBatchWriter {
  readonly #redis: RedisConnection;
  #pending: (() => readonly string[])[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  /** Queues the command `build` makes. */
  add(build: () => readonly string[]): void {
    this.#pending.push(build);
    this.#timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  /** Sends what waits now (before a command that must follow it, such as a `DEL` of its key). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = [];
    for (const build of pending) this.#redis.send(build());
  }
}
