import { createHash } from 'node:crypto';
import type { SharedRateLimitStore } from '../pipeline/shared-rate-limits.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * GCRA (the generic cell rate algorithm), atomically in Redis: the same bucket as the local
 * `TokenBuckets` (`limit` tokens, one back every `windowMs / limit`) kept as one "theoretical
 * arrival time" per key, on the Redis server's clock so replicas' clocks never disagree.
 * Replies 0 when a token was taken, else the ms until one is available. A refused call does
 * not move the arrival time; the key expires once the bucket is full again.
 */
const GCRA_SCRIPT = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local interval = window / limit
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or now) or now
if tat < now then tat = now end
local next_tat = tat + interval
local allowed_at = next_tat - window
if allowed_at > now then return math.ceil(allowed_at - now) end
redis.call('SET', KEYS[1], tostring(next_tat), 'PX', math.max(1, math.ceil(next_tat - now)))
return 0
`;

const GCRA_SHA = createHash('sha1').update(GCRA_SCRIPT).digest('hex');

/** How long a token may take before the caller falls back to its local bucket. */
const DEFAULT_TIMEOUT_MS = 500;

/**
 * The cluster's shared rate-limit buckets in Redis, under the cluster's namespace
 * (`mcptools:<namespace>:ratelimit:<rule>:<key>`): one `EVALSHA` round trip per limited call
 * (`EVAL` once per Redis start, when the script is not cached). Rejects at once while Redis is
 * away, and after `timeoutMs` when it does not answer, so the pipeline falls back to the local
 * bucket instead of holding calls.
 */
export function redisRateLimitStore(
  redis: RedisConnection,
  keys: RedisKeys,
  options: { timeoutMs?: number } = {},
): SharedRateLimitStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const run = async (key: string, limit: number, windowMs: number): Promise<number> => {
    const args = ['1', keys.rateLimit(key), String(windowMs), String(limit)];
    let reply: unknown;
    try {
      reply = await redis.command(['EVALSHA', GCRA_SHA, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      reply = await redis.command(['EVAL', GCRA_SCRIPT, ...args]);
    }
    const waitMs = Number(reply);
    if (!Number.isFinite(waitMs) || waitMs < 0)
      throw new Error(`unexpected reply from Redis: ${String(reply)}`);
    return waitMs;
  };
  return {
    take: (key, limit, windowMs) => {
      if (!redis.ready) return Promise.reject(new Error('Redis is not connected'));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      return Promise.race([run(key, limit, windowMs), timeout]).finally(() => clearTimeout(timer));
    },
  };
}
