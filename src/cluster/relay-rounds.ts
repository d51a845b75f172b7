import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * A memory of first retries shared by every replica of a cluster: resolves `true` when `digest`
 * was not claimed before (and claims it for `ttlMs`), `false` when it was, or when the memory
 * cannot be asked (too strict, never too lenient).
 */
export type SharedRounds = (digest: string, ttlMs: number) => Promise<boolean>;

/** How long a claim may take before the retry is counted as a new call. */
const TIMEOUT_MS = 500;

/**
 * The cluster's memory of relayed rounds' first retries: one `SET NX PX` per retry of a relayed
 * `input_required` round (never on any other call), so the first retry of a round continues its
 * call on whichever replica it lands, and the same round replayed to any replica is a new call,
 * limited and audited as one. With Redis away or slow, a retry is counted as a new call.
 */
export function sharedRelayRounds(redis: RedisConnection, keys: RedisKeys): SharedRounds {
  return async (digest, ttlMs) => {
    if (!redis.ready) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), TIMEOUT_MS);
    });
    const claim = redis
      .command(['SET', keys.relayRound(digest), '1', 'NX', 'PX', String(ttlMs)])
      .then((reply) => reply === 'OK')
      .catch(() => false);
    return Promise.race([claim, timeout]).finally(() => clearTimeout(timer));
  };
}
