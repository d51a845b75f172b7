import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveClusterKeys } from '../../src/cluster/cluster-key.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { SessionDirectory } from '../../src/cluster/session-directory.js';
import { ClusterSeal } from '../../src/crypto/cluster-seal.js';
import { useRedis } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * The 2025 session records of a cluster in a real Redis: every field but the owner sealed with
 * the cluster key, bound to its record and field; a record written or altered there without the
 * key is dropped (reported), never used to rebuild a session.
 */

const db = useRedis();
const derived = deriveClusterKeys(randomBytes(32));
const keys = new RedisKeys('test', derived.names);
const logged: string[] = [];

async function directory() {
  const seal = new ClusterSeal(derived.records, derived.keyId);
  return new SessionDirectory(await db.connect(), keys, 'replica-a', seal, (line) => logged.push(line));
}

const initialize = {
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'client-7c1e', version: '1' },
  },
};

describe.skipIf(!redisAvailable)('SessionDirectory (real Redis)', () => {
  it('keeps no field but the owner in clear, and names neither principal nor session', async () => {
    const sessions = await directory();
    await sessions.create({ id: 'session-1', principal: 'token:alice', profile: 'ops', initialize });
    await sessions.update('token:alice', 'session-1', {
      logLevel: 'info',
      subscriptions: ['file:///secret'],
    });
    const key = keys.session('token:alice', 'session-1');
    expect(key).not.toContain('alice');
    expect(key).not.toContain('session-1');
    const stored = await db.redis.cli('HGETALL', key);
    for (const clear of ['client-7c1e', 'file:///secret', 'ops', 'info']) expect(stored).not.toContain(clear);
    // The control: the record opens with the cluster key.
    expect(await sessions.get('token:alice', 'session-1')).toEqual({
      id: 'session-1',
      principal: 'token:alice',
      owner: 'replica-a',
      profile: 'ops',
      initialize,
      logLevel: 'info',
      subscriptions: ['file:///secret'],
    });
  });

  it('drops a record altered without the key (a field in clear, or moved from another record), and says so', async () => {
    const sessions = await directory();
    for (const id of ['session-2', 'session-3'])
      await sessions.create({ id, principal: 'token:bob', profile: '', initialize });
    const [second, third] = [keys.session('token:bob', 'session-2'), keys.session('token:bob', 'session-3')];
    logged.length = 0;
    await db.redis.cli('HSET', second, 'initialize', JSON.stringify({ method: 'initialize', forged: true }));
    expect(await sessions.get('token:bob', 'session-2')).toBeUndefined();
    // A sealed field copied from another record does not open in this one.
    const moved = (await db.redis.cli('HGET', third, 'subscriptions')).trim();
    await sessions.create({ id: 'session-4', principal: 'token:bob', profile: '', initialize });
    await db.redis.cli('HSET', keys.session('token:bob', 'session-4'), 'subscriptions', moved);
    expect(await sessions.get('token:bob', 'session-4')).toBeUndefined();
    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).toMatch(/dropped a session record/);
    // The control: the record nobody touched still opens.
    expect((await sessions.get('token:bob', 'session-3'))?.initialize).toEqual(initialize);
  });
});
