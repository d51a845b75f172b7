import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { redisRateLimitStore } from '../../src/cluster/redis-rate-limits.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useRedis } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * The cluster's shared rate-limit buckets: the GCRA script behaves as the local
 * token bucket (a burst of `limit`, one token back every `windowMs / limit`), one bucket per
 * key whoever takes from it, under the cluster's namespace, and survives Redis forgetting the
 * script. Two connections stand for two replicas.
 */

const db = useRedis();
const keys = new RedisKeys('test-namespace', randomBytes(32));

async function replicaStore() {
  const connection = await db.connect();
  return { connection, store: redisRateLimitStore(connection, keys) };
}

describe.skipIf(!redisAvailable)('redisRateLimitStore (real Redis)', () => {
  it('allows a burst of limit across two replicas, then names the wait until the next token', async () => {
    const [a, b] = [await replicaStore(), await replicaStore()];
    const taken = [];
    for (let index = 0; index < 3; index++)
      taken.push(await (index % 2 === 0 ? a : b).store.take('burst', 3, 3_000));
    expect(taken).toEqual([0, 0, 0]);
    // One token comes back every 1000 ms: the wait is at most that, and more than nothing.
    for (const { store } of [a, b]) {
      const waitMs = await store.take('burst', 3, 3_000);
      expect(waitMs).toBeGreaterThan(0);
      expect(waitMs).toBeLessThanOrEqual(1_000);
    }
    // Another key is another bucket.
    expect(await a.store.take('other', 3, 3_000)).toBe(0);
    // The bucket is one key in the namespace, expiring once it would be full again.
    const ttl = Number(await db.redis.cli('PTTL', keys.rateLimit('burst')));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_000);
  });

  it('gives a token back after windowMs / limit', async () => {
    const { store } = await replicaStore();
    expect(await store.take('refill', 2, 400)).toBe(0);
    expect(await store.take('refill', 2, 400)).toBe(0);
    expect(await store.take('refill', 2, 400)).toBeGreaterThan(0);
    await waitUntil(
      async () => (await store.take('refill', 2, 400)) === 0,
      "until (await store.take('refill', 2, 400)) === 0",
      5_000,
    );
  });

  it('loads the script again when Redis forgot it (SCRIPT FLUSH, a restart)', async () => {
    const { store } = await replicaStore();
    expect(await store.take('flushed', 5, 60_000)).toBe(0);
    await db.redis.cli('SCRIPT', 'FLUSH');
    expect(await store.take('flushed', 5, 60_000)).toBe(0);
    const counts = await db.redis.commandCounts();
    expect(counts.eval).toBeGreaterThanOrEqual(1);
    expect(counts.evalsha).toBeGreaterThanOrEqual(2);
  });

  it('rejects at once when the connection is closed (the pipeline then uses its local bucket)', async () => {
    const { connection, store } = await replicaStore();
    await connection.close();
    await expect(store.take('closed', 1, 1_000)).rejects.toThrow(/Redis is not connected/);
  });
});
