import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../src/cluster/redis-connection.js';
import { RedisEventStores } from '../../src/cluster/redis-event-stores.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { redisAvailable, scratchDir, startRedis, type TestRedis } from './cluster-harness.js';

/*
 * The Redis event store (issue 27, resumable streams): one Redis stream per principal and
 * session; a replay sends the rest of one response stream only; another session's event id names
 * nothing (the SDK's replay checks no owner, so the store is the boundary).
 */

const dir = scratchDir();
let redis: TestRedis;
let connection: RedisConnection;
let stores: RedisEventStores;

const message = (id: number, text: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { text } });

describe.skipIf(!redisAvailable)('RedisEventStores (real Redis)', () => {
  beforeAll(async () => {
    redis = await startRedis(dir.path);
    connection = await connectRedis(redis.url, () => {});
    stores = new RedisEventStores(connection, new RedisKeys('test'));
  });

  afterAll(async () => {
    await connection?.close();
    await redis?.stop();
    dir.remove();
  });

  it('replays what followed an event on its own stream only, from any connection', async () => {
    const store = stores.forSession('s1', 'token:alice');
    const priming = await store.storeEvent('post-1', {} as JSONRPCMessage);
    await store.storeEvent('post-2', message(2, 'other stream'));
    await store.storeEvent('post-1', {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    await store.storeEvent('post-1', message(1, 'the answer'));
    // Another replica: its own connection and store object, the same Redis.
    const other = await connectRedis(redis.url, () => {});
    const elsewhere = new RedisEventStores(other, new RedisKeys('test')).forSession('s1', 'token:alice');
    const replayed: JSONRPCMessage[] = [];
    const stream = await elsewhere.replayEventsAfter(priming, {
      send: async (_id, sent) => {
        replayed.push(sent);
      },
    });
    await other.close();
    expect(stream).toBe('post-1');
    expect(
      replayed.map((each) =>
        'method' in each ? each.method : (each as unknown as { result: { text: string } }).result.text,
      ),
    ).toEqual(['notifications/progress', 'the answer']);
  });

  it("refuses another session's or another principal's event id", async () => {
    const mine = stores.forSession('s2', 'token:alice');
    const id = await mine.storeEvent('post-1', {} as JSONRPCMessage);
    expect(await mine.getStreamIdForEventId!(id)).toBe('post-1');
    for (const stranger of [stores.forSession('s3', 'token:alice'), stores.forSession('s2', 'token:bob')]) {
      expect(await stranger.getStreamIdForEventId!(id)).toBeUndefined();
      await expect(stranger.replayEventsAfter(id, { send: async () => {} })).rejects.toThrow(
        /unknown event id/,
      );
    }
  });

  it('keeps each session in its own stream key, with a TTL, gone when the session is dropped', async () => {
    await stores.forSession('s4', 'token:carol').storeEvent('post-1', message(1, 'x'));
    const key = 'mcptools:test:events:token:carol:s4';
    expect(Number(await redis.cli('PTTL', key))).toBeGreaterThan(0);
    await stores.dropSession('s4', 'token:carol');
    expect((await redis.cli('EXISTS', key)).trim()).toBe('0');
  });

  it('costs one command per event: the TTL renewed once, a stream id it stored read from no one', async () => {
    const store = stores.forSession('s5', 'token:dave');
    const before = await redis.commandCounts();
    for (let index = 0; index < 10; index++) {
      const id = await store.storeEvent(`post-${index}`, message(index, 'x'));
      expect(await store.getStreamIdForEventId!(id)).toBe(`post-${index}`);
    }
    const after = await redis.commandCounts();
    const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    expect([delta('xadd'), delta('pexpire'), delta('xrange')]).toEqual([10, 1, 0]);
  });
});
