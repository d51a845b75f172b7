import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { principalVaultKey } from '../../src/auth/principal-vault-key.js';
import type { VaultEntry } from '../../src/auth/token-store.js';
import { deriveClusterKeys } from '../../src/cluster/cluster-key.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { RedisTokenStore } from '../../src/cluster/redis-token-store.js';
import { useRedis } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * The OAuth vault shared by a cluster's replicas: entries encrypted with the cluster
 * key, and a lock held across the whole update (the refresh request included) so two replicas
 * never spend the same rotating refresh token. Two stores on two connections stand for two replicas.
 */

const SERVER = 'https://mcp.example.test/mcp';
const key = randomBytes(32);
const db = useRedis();

async function replicaStore(clusterKey = key): Promise<RedisTokenStore> {
  const connection = await db.connect();
  const derived = deriveClusterKeys(clusterKey);
  return new RedisTokenStore(
    connection,
    new RedisKeys(deriveClusterKeys(key).namespace, deriveClusterKeys(key).names),
    derived.storage,
  );
}

const entry = (refresh: string): VaultEntry => ({
  serverUrl: SERVER,
  tokens: { access_token: `access-${refresh}`, token_type: 'Bearer', refresh_token: refresh },
  updatedAt: Date.now(),
});

describe.skipIf(!redisAvailable)('RedisTokenStore (real Redis)', () => {
  it("keeps a per-user server's entries under each principal's key, found by every replica", async () => {
    const a = await replicaStore();
    const b = await replicaStore();
    const alice = principalVaultKey('oauth:alice', SERVER);
    await a.update(alice, () => ({ ...entry('alice-refresh'), serverUrl: alice }));
    expect((await b.get(alice))?.tokens?.refresh_token).toBe('alice-refresh');
    expect(await b.get(principalVaultKey('oauth:bob', SERVER))).toBeUndefined();
    expect((await b.get(SERVER))?.tokens?.refresh_token).not.toBe('alice-refresh');
    await a.update(alice, () => undefined);
  });

  it('keeps entries encrypted at rest, readable by every replica with the key and by no one without it', async () => {
    const a = await replicaStore();
    const b = await replicaStore();
    await a.update(SERVER, () => entry('refresh-secret-1'));
    expect((await b.get(SERVER))?.tokens?.refresh_token).toBe('refresh-secret-1');
    expect((await b.list()).map((each) => each.serverUrl)).toEqual([SERVER]);
    const dump = await db.redis.cli('--scan', '--pattern', 'mcptools:*');
    for (const name of dump.split('\n').filter(Boolean)) {
      const type = (await db.redis.cli('TYPE', name)).trim();
      if (type === 'hash') expect(await db.redis.cli('HGETALL', name)).not.toContain('refresh-secret-1');
    }
    const stranger = await replicaStore(randomBytes(32));
    expect(await stranger.get(SERVER)).toBeUndefined();
  });

  it('serializes updates across replicas: a rotating refresh token is spent once', async () => {
    const a = await replicaStore();
    const b = await replicaStore();
    await a.update(SERVER, () => entry('r0'));
    const spent: string[] = [];
    // Each replica "refreshes": reads the refresh token, spends it (a slow request), stores the next.
    const refresh = (store: RedisTokenStore) =>
      store.update(SERVER, async (current) => {
        const token = current?.tokens?.refresh_token ?? 'none';
        spent.push(token);
        await new Promise((resolve) => setTimeout(resolve, 150));
        return entry(`${token}+`);
      });
    await Promise.all([refresh(a), refresh(b), refresh(a), refresh(b)]);
    expect(new Set(spent).size).toBe(4);
    expect((await a.get(SERVER))?.tokens?.refresh_token).toBe('r0++++');
  });
});
