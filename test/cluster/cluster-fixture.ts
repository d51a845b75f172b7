import { join } from 'node:path';
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

/** What a cluster test file that starts its own replicas sets up: see {@link useClusterBench}. */
export interface ClusterBench {
  /** The file's scratch folder (Redis' socket, configurations, pin files), removed after it. */
  dir: string;
  /** The cluster key, base64, as a replica of the CLI reads it from `MCPTOOLS_CLUSTER_KEY`. */
  key: string;
  /** The same key's bytes, as a library gateway's `cluster.key` takes it. */
  keyBytes: Buffer;
  /** The file's private Redis, started in `beforeAll`. */
  redis: TestRedis;
  /** A path in the scratch folder: `bench.file('pins-a.json')`. */
  file(name: string): string;
  /** Writes a configuration file with `servers` (and top-level `extra`) in the scratch folder: its path. */
  config(servers: Record<string, unknown>, extra?: Record<string, unknown>): string;
  /** Starts a replica of the built CLI in this cluster (this Redis unless `redis` is given, this key), stopped after the file. */
  replica(options: {
    name: string;
    config: string;
    redis?: string;
    token?: string;
    args?: string[];
  }): Promise<Replica>;
  /** Clients of the file, closed after it before anything else. */
  clients: Client[];
  /** Registers `close` to run after the file, once the clients are closed and the replicas stopped, before Redis stops. */
  onClose(close: () => unknown): void;
}

/**
 * Registers the `beforeAll`/`afterAll` that every cluster test file repeated: a scratch folder, a
 * fresh cluster key, a private Redis (filled in `beforeAll`), and, after the file, its clients
 * closed, its replicas stopped, what it registered with `onClose` closed, Redis stopped and the
 * folder removed. Nothing starts where `redis-server` is missing (the file's tests skip there).
 */
export function useClusterBench(): ClusterBench {
  const dir = scratchDir();
  const key = newClusterKey();
  const replicas: Replica[] = [];
  const closers: (() => unknown)[] = [];
  const bench = {
    dir: dir.path,
    key,
    keyBytes: Buffer.from(key, 'base64'),
    clients: [] as Client[],
    file: (name: string) => join(dir.path, name),
    config: (servers: Record<string, unknown>, extra?: Record<string, unknown>) =>
      writeConfig(dir.path, servers, extra),
    async replica(options: {
      name: string;
      config: string;
      redis?: string;
      token?: string;
      args?: string[];
    }) {
      const replica = await startReplica({ redis: bench.redis.url, key, ...options });
      replicas.push(replica);
      return replica;
    },
    onClose(close: () => unknown) {
      closers.push(close);
    },
  } as ClusterBench;
  if (!redisAvailable) {
    afterAll(() => dir.remove());
    return bench;
  }
  beforeAll(async () => {
    bench.redis = await startRedis(dir.path);
  });
  afterAll(async () => {
    await Promise.allSettled(bench.clients.map((client) => client.close()));
    await Promise.all(replicas.map((replica) => replica.stop()));
    for (const close of closers) await close();
    await bench.redis?.stop();
    dir.remove();
  });
  return bench;
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
