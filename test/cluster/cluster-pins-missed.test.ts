import { existsSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveClusterKeys, parseClusterKey } from '../../src/cluster/cluster-key.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { ClusterSeal } from '../../src/crypto/cluster-seal.js';
import { runCli } from '../cli/cli-process.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { connectClient, toolNames } from '../gateway/gateway-test-helpers.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import {
  newClusterKey,
  type Replica,
  redisAvailable,
  scratchDir,
  startRedis,
  startReplica,
  type TestRedis,
  writeConfig,
} from './cluster-harness.js';

/*
 * The pins of a cluster live in Redis, sealed with the cluster key. Replica A pins a tool on
 * first use; the upstream changes it (a rug pull); replica B, started afterwards with no pin
 * file, holds the change back against A's pin instead of trusting it on first use. Records
 * approving the change forged into Redis (in clear, under another cluster's key, under this key
 * but sealed for another field) approve nothing. `mcptools pins approve` on A's file while B is
 * down: B started again serves it, with no approval of its own; and a replica cut off from Redis
 * during an approval applies it when its connection comes back.
 */

const dir = scratchDir();
const key = newClusterKey();
const pinFiles = [join(dir.path, 'pins-a.json'), join(dir.path, 'pins-b.json')] as const;
let redis: TestRedis;
let upstream: HttpFixture;
let config: [string, string];
const running: Replica[] = [];
const clients: Client[] = [];

type PinFile = {
  servers: Record<
    string,
    {
      pins: Record<string, { fingerprint: string }>;
      pending: Record<string, { fingerprint: string; definition: Record<string, unknown> }>;
    }
  >;
};
const readPins = (file: string): PinFile | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PinFile) : undefined;

async function start(name: 'a' | 'b', redisUrl = redis.url): Promise<{ replica: Replica; client: Client }> {
  const replica = await startReplica({
    name,
    config: config[name === 'a' ? 0 : 1],
    redis: redisUrl,
    key,
  });
  running.push(replica);
  const client = await connectClient(`${replica.base}/mcp`, 'legacy');
  clients.push(client);
  return { replica, client };
}

/**
 * A unix-socket path in front of Redis that can be cut (every connection through it ended, no
 * new one taken) and restored: a network partition between one replica and Redis.
 */
function cuttableRedis(target: string, path: string) {
  const open = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target);
        open.add(client).add(upstream);
        for (const socket of [client, upstream]) {
          socket.on('error', () => undefined);
          socket.on('close', () => {
            open.delete(socket);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(path, resolve);
    });
  return {
    url: `unix://${path}`,
    listen,
    cut: async () => {
      await new Promise((resolve) => {
        server?.close(resolve);
        for (const socket of open) socket.destroy();
      });
      rmSync(path, { force: true });
    },
  };
}

describe.skipIf(!redisAvailable)('pin approvals a replica missed (built CLI, real Redis)', () => {
  beforeAll(async () => {
    redis = await startRedis(dir.path);
    upstream = await startHttpFixture('shifting', ['--era', 'legacy']);
    const servers = { dict: { type: 'streamable-http', url: upstream.url } };
    config = [
      writeConfig(dir.path, servers, { pins: { file: pinFiles[0] } }),
      writeConfig(dir.path, servers, { pins: { file: pinFiles[1] } }),
    ];
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.all(running.map((replica) => replica.stop()));
    await upstream?.close();
    await redis?.stop();
    dir.remove();
  });

  it('a replica started later enforces the pins another made, and one down during an approval applies it at start; forged records pin nothing', async () => {
    const a = await start('a');
    await expect
      .poll(() => toolNames(a.client), { message: 'A serves the reviewed lookup', timeout: 15_000 })
      .toContain('dict__lookup');
    await expect
      .poll(() => readPins(pinFiles[0])?.servers.dict?.pins['tool:lookup'], {
        message: 'A pinned lookup on first use',
        timeout: 15_000,
      })
      .toBeDefined();
    const firstUse = readPins(pinFiles[0])!.servers.dict!.pins['tool:lookup']!.fingerprint;
    const derived = deriveClusterKeys(parseClusterKey(key));
    const keys = new RedisKeys(derived.namespace, derived.names);
    const hash = keys.pins();
    const field = keys.pinField('dict', 'tool:lookup');
    await expect
      .poll(async () => (await redis.cli('HEXISTS', hash, field)).trim(), {
        message: "A's first-use pin is recorded in Redis",
        timeout: 15_000,
      })
      .toBe('1');
    // Nothing of the records shows in clear in Redis: fields are HMACs, values sealed.
    expect(await redis.cli('HGETALL', hash)).not.toContain('lookup');

    // The upstream changes lookup (a rug pull) before replica B ever saw it.
    await a.client.callTool({ name: 'dict__shift', arguments: { change: 'parameter' } });
    await expect
      .poll(() => readPins(pinFiles[0])?.servers.dict?.pending['tool:lookup'], {
        message: 'A holds the changed lookup back',
        timeout: 15_000,
      })
      .toBeDefined();
    const changed = readPins(pinFiles[0])!.servers.dict!.pending['tool:lookup']!;

    // B starts with no pin file: the pin A made on first use is B's too, not the changed definition.
    let b = await start('b');
    await expect
      .poll(() => readPins(pinFiles[1])?.servers.dict?.pending['tool:lookup']?.fingerprint, {
        message: 'B, started after the change, holds the changed lookup back',
        timeout: 15_000,
      })
      .toBe(changed.fingerprint);
    const names = await toolNames(b.client);
    expect(names).toContain('dict__shift');
    expect(names).not.toContain('dict__lookup');
    expect(readPins(pinFiles[1])!.servers.dict!.pins['tool:lookup']!.fingerprint).toBe(firstUse);

    // Forged records approving exactly that change, written over the real one, and a sealed
    // notice (the test holds the key) that makes B read them.
    const record = { server: 'dict', entry: 'tool:lookup', from: 'intruder', approval: true };
    const pin = { ...changed, pinnedAt: new Date().toISOString() };
    const ours = new ClusterSeal(derived.records, derived.keyId);
    const theirs = new ClusterSeal(
      deriveClusterKeys(parseClusterKey(newClusterKey())).records,
      derived.keyId,
    );
    const forged = [
      JSON.stringify({ ...record, pin }),
      theirs.seal(JSON.stringify({ ...record, pin }), `${hash}\n${field}`),
      // Under the key, but sealed for another definition's field: a record is bound to its place.
      ours.seal(JSON.stringify({ ...record, pin }), `${hash}\n${keys.pinField('dict', 'tool:shift')}`),
    ];
    const notice = JSON.stringify({
      from: 'intruder',
      kind: 'pins',
      sealed: ours.seal(JSON.stringify({ server: 'dict', at: Date.now() }), `${keys.control()}\npins`),
    });
    for (const value of forged) {
      await redis.cli('HSET', hash, field, value);
      await redis.cli('PUBLISH', keys.control(), notice);
    }
    // B read them: the record it cannot open is no pin (the lookup waits as a new tool), never an approval.
    await expect
      .poll(() => b.replica.stderr(), { message: 'B read the forged records', timeout: 15_000 })
      .toContain('cluster: dict/tool:lookup is no longer pinned in the cluster');
    expect(await toolNames(b.client)).not.toContain('dict__lookup');
    expect(readPins(pinFiles[1])!.servers.dict!.pins['tool:lookup']).toBeUndefined();
    await b.client.close();
    await b.replica.stop();

    const approve = await runCli(['pins', 'approve', 'dict/lookup', '--file', pinFiles[0]], dir.path);
    expect(approve.stdout).toContain('approved dict/tool:lookup');
    await expect
      .poll(() => toolNames(a.client), { message: 'A serves the approved lookup', timeout: 15_000 })
      .toContain('dict__lookup');
    await expect
      .poll(async () => ours.open(await redis.cli('HGET', hash, field), `${hash}\n${field}`), {
        message: 'A recorded its approval in Redis over the forged record',
        timeout: 15_000,
      })
      .toContain(changed.fingerprint);

    b = await start('b');
    await expect
      .poll(() => toolNames(b.client), {
        message: 'B, started after the approval it missed, serves the lookup',
        timeout: 15_000,
      })
      .toContain('dict__lookup');
    const called = await b.client.callTool({ name: 'dict__lookup', arguments: { word: 'pin' } });
    expect(textOf(called as never)).toBe('definition of pin');
    expect(readPins(pinFiles[1])!.servers.dict!.pins['tool:lookup']!.fingerprint).toBe(changed.fingerprint);
    expect(b.replica.stderr()).toContain('dict/tool:lookup approved on replica a');
    await b.client.close();
    await b.replica.stop();
  }, 180_000);

  it('a replica cut off from Redis during an approval applies it when its connection comes back', async () => {
    const a = { client: clients[0]! };
    const path = cuttableRedis(redis.socket, join(dir.path, 'b-redis.sock'));
    await path.listen();
    const b = await start('b', path.url);
    await expect
      .poll(() => toolNames(b.client), { message: 'B serves lookup', timeout: 15_000 })
      .toContain('dict__lookup');
    await a.client.callTool({ name: 'dict__shift', arguments: { change: 'add' } });
    for (const [file, label] of [
      [pinFiles[0], 'A'],
      [pinFiles[1], 'B'],
    ] as const)
      await expect
        .poll(() => readPins(file)?.servers.dict?.pending['tool:export_all'], {
          message: `${label} holds the added tool back`,
          timeout: 15_000,
        })
        .toBeDefined();

    await path.cut();
    const approve = await runCli(['pins', 'approve', 'dict/export_all', '--file', pinFiles[0]], dir.path);
    expect(approve.stdout).toContain('approved dict/tool:export_all');
    await expect
      .poll(() => toolNames(a.client), { message: 'A serves the approved tool', timeout: 15_000 })
      .toContain('dict__export_all');
    // B heard nothing (its subscription was cut): the added tool is still held back there.
    expect(readPins(pinFiles[1])?.servers.dict?.pins['tool:export_all']).toBeUndefined();
    expect(await toolNames(b.client)).not.toContain('dict__export_all');

    await path.listen();
    await expect
      .poll(() => toolNames(b.client), {
        message: 'B, reconnected, reads the pins in Redis and serves the approved tool',
        timeout: 20_000,
      })
      .toContain('dict__export_all');
    expect(readPins(pinFiles[1])?.servers.dict?.pins['tool:export_all']?.fingerprint).toBe(
      readPins(pinFiles[0])?.servers.dict?.pins['tool:export_all']?.fingerprint,
    );
    expect(b.replica.stderr()).toContain('dict/tool:export_all approved on replica a');
  }, 120_000);
});
