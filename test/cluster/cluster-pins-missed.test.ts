import { existsSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveClusterKeys, parseClusterKey } from '../../src/cluster/cluster-key.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { ClusterSeal } from '../../src/crypto/cluster-seal.js';
import { runCli } from '../cli/cli-process.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { connectClient, toolNames } from '../gateway/gateway-test-helpers.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { newClusterKey, type Replica, redisAvailable } from './cluster-harness.js';

/*
 * A replica that is down when a pin approval is made applies it when it starts: the approval is
 * kept in Redis, sealed with the cluster key. Replica B is stopped, the upstream changes a tool
 * (a rug pull), records approving the change are forged into Redis (in clear, under another
 * cluster's key, under this key but for the control channel, and too old): B started again
 * still holds the tool back. `mcptools pins approve` on A's file while B is down: B started
 * again serves it, with no approval of its own.
 */

const bench = useClusterBench();
const pinFiles = [bench.file('pins-a.json'), bench.file('pins-b.json')] as const;
let upstream: HttpFixture;
let config: [string, string];

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

async function start(
  name: 'a' | 'b',
  redisUrl = bench.redis.url,
): Promise<{ replica: Replica; client: Client }> {
  const replica = await bench.replica({ name, config: config[name === 'a' ? 0 : 1], redis: redisUrl });
  const client = await connectClient(`${replica.base}/mcp`, 'legacy');
  bench.clients.push(client);
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
    upstream = await startHttpFixture('shifting', ['--era', 'legacy']);
    bench.onClose(() => upstream.close());
    const servers = { dict: { type: 'streamable-http', url: upstream.url } };
    config = [
      bench.config(servers, { pins: { file: pinFiles[0] } }),
      bench.config(servers, { pins: { file: pinFiles[1] } }),
    ];
  }, 120_000);

  it('a replica down during an approval applies it at start; forged records approve nothing', async () => {
    const a = await start('a');
    let b = await start('b');
    for (const [side, label] of [
      [a, 'A'],
      [b, 'B'],
    ] as const)
      await expect
        .poll(() => toolNames(side.client), {
          message: `${label} serves the reviewed lookup`,
          timeout: 15_000,
        })
        .toContain('dict__lookup');
    await expect
      .poll(() => readPins(pinFiles[1])?.servers.dict?.pins['tool:lookup'], {
        message: 'B pinned lookup on first use',
        timeout: 15_000,
      })
      .toBeDefined();
    const firstUse = readPins(pinFiles[1])!.servers.dict!.pins['tool:lookup']!.fingerprint;
    await b.client.close();
    await b.replica.stop();

    await a.client.callTool({ name: 'dict__shift', arguments: { change: 'parameter' } });
    await expect
      .poll(() => readPins(pinFiles[0])?.servers.dict?.pending['tool:lookup'], {
        message: 'A holds the changed lookup back',
        timeout: 15_000,
      })
      .toBeDefined();
    const changed = readPins(pinFiles[0])!.servers.dict!.pending['tool:lookup']!;

    // Forged records of exactly that approval, pushed where the real ones are kept.
    const derived = deriveClusterKeys(parseClusterKey(bench.key));
    const keys = new RedisKeys(derived.namespace, derived.names);
    const list = keys.pinApprovals();
    const approval = { server: 'dict', key: 'tool:lookup', ...changed, from: 'intruder' };
    const ours = new ClusterSeal(derived.records, derived.keyId);
    const theirs = new ClusterSeal(
      deriveClusterKeys(parseClusterKey(newClusterKey())).records,
      derived.keyId,
    );
    const now = Date.now();
    const forged = [
      JSON.stringify({ ...approval, at: now }),
      theirs.seal(JSON.stringify({ ...approval, at: now }), `${list}\napproval`),
      // Sealed under the key, but for the control channel: a sealed value is bound to its place.
      ours.seal(JSON.stringify({ ...approval, at: now }), `${keys.control()}\npin`),
      // Under the key, in its place, but older than a recorded approval may be.
      ours.seal(JSON.stringify({ ...approval, at: now - 8 * 24 * 60 * 60_000 }), `${list}\napproval`),
    ];
    for (const record of forged) await bench.redis.cli('RPUSH', list, record);

    b = await start('b');
    await expect
      .poll(() => readPins(pinFiles[1])?.servers.dict?.pending['tool:lookup']?.fingerprint, {
        message: 'B, started again, holds the changed lookup back',
        timeout: 15_000,
      })
      .toBe(changed.fingerprint);
    const names = await toolNames(b.client);
    expect(names).toContain('dict__shift');
    expect(names).not.toContain('dict__lookup');
    expect(readPins(pinFiles[1])!.servers.dict!.pins['tool:lookup']!.fingerprint).toBe(firstUse);
    await b.client.close();
    await b.replica.stop();

    const approve = await runCli(['pins', 'approve', 'dict/lookup', '--file', pinFiles[0]], bench.dir);
    expect(approve.stdout).toContain('approved dict/tool:lookup');
    await expect
      .poll(() => toolNames(a.client), { message: 'A serves the approved lookup', timeout: 15_000 })
      .toContain('dict__lookup');
    await expect
      .poll(async () => Number(await bench.redis.cli('LLEN', list)), {
        message: 'A recorded its approval in Redis beside the forged ones',
        timeout: 15_000,
      })
      .toBe(forged.length + 1);

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
    expect(b.replica.stderr()).toContain('dict/tool:lookup approved on replica a (recorded)');
    // Nothing of the record shows in clear in Redis: the list holds sealed values only.
    const stored = await bench.redis.cli('LRANGE', list, '-1', '-1');
    expect(stored).not.toContain('lookup');
    await b.client.close();
    await b.replica.stop();
  }, 180_000);

  it('a replica cut off from Redis during an approval applies it when its connection comes back', async () => {
    const a = { client: bench.clients[0]! };
    const path = cuttableRedis(bench.redis.socket, bench.file('b-redis.sock'));
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
    const approve = await runCli(['pins', 'approve', 'dict/export_all', '--file', pinFiles[0]], bench.dir);
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
        message: 'B, reconnected, applies the recorded approval and serves the tool',
        timeout: 20_000,
      })
      .toContain('dict__export_all');
    expect(readPins(pinFiles[1])?.servers.dict?.pins['tool:export_all']?.fingerprint).toBe(
      readPins(pinFiles[0])?.servers.dict?.pins['tool:export_all']?.fingerprint,
    );
    expect(b.replica.stderr()).toContain('dict/tool:export_all approved on replica a (recorded)');
  }, 120_000);
});
