import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll } from 'vitest';
import { deriveClusterKeys, parseClusterKey } from '../../src/cluster/cluster-key.js';
import { connectRedis, type RedisConnection } from '../../src/cluster/redis-connection.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { ClusterSeal } from '../../src/crypto/cluster-seal.js';
import {
  type Balancer,
  newClusterKey,
  type Replica,
  redisAvailable,
  scratchDir,
  startBalancer,
  startRedis,
  startReplica,
  type TestRedis,
  writeConfig,
} from './cluster-harness.js';

/** A running cluster of a test file: its Redis, its replicas (`a`, `b`, …), the balancer in front. */
export interface ClusterFixture {
  redis: TestRedis;
  replicas: Replica[];
  balancer: Balancer;
  /** The cluster key (base64), as the replicas read it from `MCPTOOLS_CLUSTER_KEY`. */
  key: string;
  /** Starts replica `index` again (after a kill), under the same name. */
  restart(index: number): Promise<Replica>;
  /** The Redis key of `principal`'s session record (its name is an HMAC under the cluster key). */
  recordKey(sessionId: string, principal?: string): string;
  /** A field of a session record, opened with the cluster key (`owner` is kept in clear). */
  recordField(sessionId: string, field: string, principal?: string): Promise<string | undefined>;
}

/**
 * Registers the `beforeAll`/`afterAll` of a cluster test file: a private Redis, replicas of the
 * built CLI serving `servers` (plus `extra` top-level configuration), and a balancer in front of
 * them (round robin until a test sets its routing). The returned object is filled in `beforeAll`.
 */
export function useCluster(
  servers: Record<string, unknown>,
  options: { names?: string[]; extra?: Record<string, unknown> } = {},
): ClusterFixture {
  const names = options.names ?? ['a', 'b'];
  const dir = scratchDir();
  let config = '';
  const fixture = {
    key: newClusterKey(),
    replicas: [] as Replica[],
    async restart(index: number) {
      const replica = await startReplica({
        name: names[index]!,
        config,
        redis: fixture.redis.url,
        key: fixture.key,
      });
      fixture.replicas[index] = replica;
      return replica;
    },
    recordKey(sessionId: string, principal = 'anonymous') {
      const derived = deriveClusterKeys(parseClusterKey(fixture.key));
      return new RedisKeys(derived.namespace, derived.names).session(principal, sessionId);
    },
    async recordField(sessionId: string, field: string, principal = 'anonymous') {
      const key = fixture.recordKey(sessionId, principal);
      const stored = (await fixture.redis.cli('HGET', key, field)).trim();
      if (field === 'owner') return stored;
      const derived = deriveClusterKeys(parseClusterKey(fixture.key));
      return new ClusterSeal(derived.records, derived.keyId).open(stored, `${key}\n${field}`);
    },
  } as ClusterFixture;
  beforeAll(async () => {
    fixture.redis = await startRedis(dir.path);
    config = writeConfig(dir.path, servers, options.extra);
    await Promise.all(names.map((_, index) => fixture.restart(index)));
    fixture.balancer = await startBalancer(fixture.replicas);
  }, 120_000);
  afterAll(async () => {
    await fixture.balancer?.close();
    await Promise.all(fixture.replicas.map((replica) => replica.stop()));
    await fixture.redis?.stop();
    dir.remove();
  });
  return fixture;
}

/** A private Redis of a test file, and connections to it (each standing for one replica's). */
export interface RedisFixture {
  redis: TestRedis;
  /** A new connection, closed after the file. */
  connect(): Promise<RedisConnection>;
}

/**
 * Registers the `beforeAll`/`afterAll` of a test file of the cluster's Redis stores: a private
 * Redis (filled in `beforeAll`), and every connection made through `connect` closed after.
 * Nothing is registered where `redis-server` is missing (the file's tests are skipped there).
 */
export function useRedis(): RedisFixture {
  const dir = scratchDir();
  const connections: RedisConnection[] = [];
  const fixture = {
    async connect() {
      const connection = await connectRedis(fixture.redis.url, () => {});
      connections.push(connection);
      return connection;
    },
  } as RedisFixture;
  if (!redisAvailable) return fixture;
  beforeAll(async () => {
    fixture.redis = await startRedis(dir.path);
  });
  afterAll(async () => {
    for (const connection of connections) await connection.close();
    await fixture.redis?.stop();
    dir.remove();
  });
  return fixture;
}

/** A 2025-era SDK client of `url` (the SDK's default: `initialize`, a session), with its transport. */
export async function legacyClient(
  url: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'cluster-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}
