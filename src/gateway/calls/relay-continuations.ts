import { createHash } from 'node:crypto';
import type { SharedRounds } from '../../cluster/relay-rounds.js';

/** How long a relayed round's retry is remembered (longer than a sealed requestState lives by default). */
const REMEMBER_MS = 10 * 60_000;
/** Retries remembered at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 10_000;

/**
 * The retries of relayed `input_required` rounds a gateway has seen: the first retry of a round
 * continues its call (rate limits took its token in the first round); the same sealed round
 * sent again is a new call, counted again, so replaying one `requestState` cannot slip past a
 * rate limit. In a cluster the first retry is also claimed in the cluster's shared memory
 * ({@link shareWith}), so a replay reaching another replica is no first retry there either.
 */
export class RelayContinuations {
  /** Round digest → when it was first retried. In insertion order (oldest first). */
  readonly #seen = new Map<string, number>();
  readonly #now: () => number;
  #shared: SharedRounds | undefined;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** From now on a first retry must also be the first in `shared` (the cluster's, in Redis). */
  shareWith(shared: SharedRounds): void {
    this.#shared = shared;
  }

  /**
   * `true` the first time `principal` retries the relayed round `round` (the random id sealed in
   * its `requestState`) of `server`'s `name`, `false` for every later retry of the same round.
   * A state sealed before round ids existed names its round by the upstream's `state`: retries
   * of one tool by one principal may then share a round, and a later call's retry is counted
   * again (too strict, never too lenient).
   */
  first(
    principal: string,
    server: string,
    name: string,
    round: string | undefined,
  ): boolean | Promise<boolean> {
    const now = this.#now();
    for (const [digest, at] of this.#seen) {
      if (now - at < REMEMBER_MS && this.#seen.size < MAX_REMEMBERED) break;
      this.#seen.delete(digest);
    }
    const digest = createHash('sha256')
      .update(JSON.stringify([principal, server, name, round ?? null]))
      .digest('base64url');
    if (this.#seen.has(digest)) return false;
    this.#seen.set(digest, now);
    return this.#shared === undefined ? true : this.#shared(digest, REMEMBER_MS);
  }
}
