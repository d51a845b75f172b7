import { randomBytes } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveClusterKeys } from '../../src/cluster/cluster-key.js';
import type { RedisConnection } from '../../src/cluster/redis-connection.js';
import { RedisEventStores } from '../../src/cluster/redis-event-stores.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { ClusterSeal } from '../../src/crypto/cluster-seal.js';
import { useRedis } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * The Redis event store: one Redis stream per principal and
 * session; a replay sends the rest of one response stream only; another session's event id names
 * nothing (the SDK's replay checks no owner, so the store is the boundary). The store does not
 * wait for Redis (it sends its events a few milliseconds later, together): `settled` waits past
 * that, then sends a PING on the same connection, which Redis answers only after every command
 * sent before it.
 */

const db = useRedis();
let connection: RedisConnection;
let stores: RedisEventStores;
const derived = deriveClusterKeys(randomBytes(32));
const keys = new RedisKeys('test', derived.names);
const seal = new ClusterSeal(derived.records, derived.keyId);
/** What the stores reported (a dropped event). */
const logged: string[] = [];
const storesOn = (redis: RedisConnection) =>
  new RedisEventStores(redis, keys, seal, { log: (line) => logged.push(line) });

const message = (id: number, text: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { text } });
const settled = async () => {
  await new Promise((resolve) => setTimeout(resolve, 30));
  await connection.command(['PING']);
};
const textOf = (each: JSONRPCMessage) =>
  'method' in each ? each.method : (each as unknown as { result: { text: string } }).result.text;

describe.skipIf(!redisAvailable)('RedisEventStores (real Redis)', () => {
  beforeAll(async () => {
    connection = await db.connect();
    stores = storesOn(connection);
  });

  it('replays what followed an event on its own stream only, from any connection', async () => {
    const store = stores.forSession('s1', 'token:alice');
    const priming = await store.storeEvent('post-1', {} as JSONRPCMessage);
    await store.storeEvent('post-2', message(2, 'other stream'));
    const progress = await store.storeEvent('post-1', {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    const answer = await store.storeEvent('post-1', message(1, 'the answer'));
    await settled();
    // Another replica: its own connection and store object, the same Redis.
    const other = await db.connect();
    const elsewhere = storesOn(other).forSession('s1', 'token:alice');
    const replay = async (from: string) => {
      const replayed: [string, string][] = [];
      const stream = await elsewhere.replayEventsAfter(from, {
        send: async (id, sent) => {
          replayed.push([id, textOf(sent)]);
        },
      });
      return { stream, replayed };
    };
    // From the priming event (never stored): every event of its stream, with the ids first sent.
    expect(await replay(priming)).toEqual({
      stream: 'post-1',
      replayed: [
        [progress, 'notifications/progress'],
        [answer, 'the answer'],
      ],
    });
    expect(await replay(progress)).toEqual({ stream: 'post-1', replayed: [[answer, 'the answer']] });
    expect(await elsewhere.getStreamIdForEventId!(progress)).toBe('post-1');
    await other.close();
  });

  it('finds an event still on its way when the replay starts, and reads a long stream page by page', async () => {
    const store = stores.forSession('s6', 'token:erin');
    const ids: string[] = [];
    for (let index = 0; index < 150; index++)
      ids.push(await store.storeEvent(`post-${index % 3}`, message(index, `n${index}`)));
    // Not settled: the replay's first read may come before the last XADD; it looks again.
    const replayed: string[] = [];
    await store.replayEventsAfter(ids[2]!, {
      send: async (_id, sent) => {
        replayed.push(textOf(sent));
      },
    });
    expect(replayed).toEqual(Array.from({ length: 49 }, (_, index) => `n${5 + index * 3}`));
    await expect(
      store.replayEventsAfter(`${ids[2]!.split('.')[0]}.eX-1.post-2`, { send: async () => {} }),
    ).rejects.toThrow(/unknown event id/);
  });

  it("refuses another session's or another principal's event id", async () => {
    const mine = stores.forSession('s2', 'token:alice');
    const priming = await mine.storeEvent('post-1', {} as JSONRPCMessage);
    const stored = await mine.storeEvent('post-1', message(1, 'mine'));
    await settled();
    expect(await mine.getStreamIdForEventId!(priming)).toBe('post-1');
    for (const stranger of [stores.forSession('s3', 'token:alice'), stores.forSession('s2', 'token:bob')])
      for (const id of [priming, stored, 'not-an-id', `${priming.split('.')[0]}.x.post-1`]) {
        expect(await stranger.getStreamIdForEventId!(id)).toBeUndefined();
        await expect(stranger.replayEventsAfter(id, { send: async () => {} })).rejects.toThrow(
          /unknown event id/,
        );
      }
  });

  it('keeps each session in its own stream key, with a TTL, gone when the session is dropped', async () => {
    await stores.forSession('s4', 'token:carol').storeEvent('post-1', message(1, 'x'));
    await settled();
    const key = keys.events('token:carol', 's4');
    // The key names neither the principal nor the session.
    expect(key).toMatch(/^mcptools:test:events:[\w-]{43}$/);
    expect(Number(await db.redis.cli('PTTL', key))).toBeGreaterThan(0);
    await stores.dropSession('s4', 'token:carol');
    expect((await db.redis.cli('EXISTS', key)).trim()).toBe('0');
  });

  it('costs one command per stored event and none per priming event: no reads, the TTL renewed once', async () => {
    const store = stores.forSession('s5', 'token:dave');
    const before = await db.redis.commandCounts();
    for (let index = 0; index < 10; index++) {
      expect(
        await store.getStreamIdForEventId!(await store.storeEvent(`post-${index}`, {} as JSONRPCMessage)),
      ).toBe(`post-${index}`);
      const id = await store.storeEvent(`post-${index}`, message(index, 'x'));
      expect(await store.getStreamIdForEventId!(id)).toBe(`post-${index}`);
    }
    await settled();
    const after = await db.redis.commandCounts();
    const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    expect([delta('xadd'), delta('pexpire'), delta('xrange'), delta('xrevrange')]).toEqual([10, 1, 0, 0]);
  });

  it('keeps no message in clear, and never replays an entry written without the cluster key', async () => {
    const store = stores.forSession('s7', 'token:frank');
    const priming = await store.storeEvent('post-1', {} as JSONRPCMessage);
    const first = await store.storeEvent('post-1', message(1, 'secret-result-4f1c'));
    const second = await store.storeEvent('post-1', message(2, 'second-result'));
    await settled();
    const key = keys.events('token:frank', 's7');
    const stored = await db.redis.cli('XRANGE', key, '-', '+');
    expect(stored).not.toContain('secret-result-4f1c');
    expect(stored).not.toContain('jsonrpc');
    // A forged message under a plausible next id of the stream, in clear and in a made-up seal;
    // the real sealed message of `second` moved under another id; a forged copy of the anchor.
    const sealedSecond = /v1\.[0-9a-f]{8}\.\S+/.exec(stored.split('\n').slice(-2).join('\n'))![0];
    const next = (step: number) =>
      second.replace(/-(\d+)\.post-1$/, (_all, n: string) => `-${Number(n) + step}.post-1`);
    const forged = JSON.stringify(message(9, 'forged-by-hand'));
    const madeUp = `v1.${derived.keyId}.${Buffer.from(forged).toString('base64')}`;
    await db.redis.cli('XADD', key, '*', 'i', next(1), 'm', forged);
    await db.redis.cli('XADD', key, '*', 'i', next(2), 'm', madeUp);
    await db.redis.cli('XADD', key, '*', 'i', next(3), 'm', sealedSecond);
    await db.redis.cli('XADD', key, '*', 'i', first, 'm', forged);
    // The real entry copied as it is: sent once.
    await db.redis.cli('XADD', key, '*', 'i', second, 'm', sealedSecond);
    logged.length = 0;
    const replayed: [string, string][] = [];
    const replay = (from: string) =>
      store.replayEventsAfter(from, {
        send: async (id, sent) => {
          replayed.push([id, textOf(sent)]);
        },
      });
    expect(await replay(first)).toBe('post-1');
    expect(replayed).toEqual([[second, 'second-result']]);
    expect(logged).toHaveLength(4);
    expect(logged.join('\n')).not.toContain('forged-by-hand');
    // The control: the stream's own events replay in full from its start.
    replayed.length = 0;
    await replay(priming);
    expect(replayed).toEqual([
      [first, 'secret-result-4f1c'],
      [second, 'second-result'],
    ]);
  });
});
