import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveClusterKeys, parseClusterKey } from '../../src/cluster/cluster-key.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { ClusterSeal } from '../../src/crypto/cluster-seal.js';
import { runCli } from '../cli/cli-process.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { connectClient, toolNames, watchToolChanges } from '../gateway/gateway-test-helpers.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { newClusterKey, type Replica, redisAvailable } from './cluster-harness.js';

/*
 * Two replicas, each with its own pin file, over one upstream that changes a tool's definition
 * (a rug pull): both quarantine it; `mcptools pins approve` on replica A's file alone serves it
 * on B too (the approval is written to the pins in Redis, sealed, and B, told on the control
 * channel, pins it in its own file). The controls: notices published without the cluster key
 * (clear, or sealed under another key) change nothing.
 */

const bench = useClusterBench();
const pinFiles = [bench.file('pins-a.json'), bench.file('pins-b.json')] as const;
let upstream: HttpFixture;
const replicas: Replica[] = [];
const clients = bench.clients;

type PinFile = {
  servers: Record<
    string,
    { pins: Record<string, { fingerprint: string }>; pending: Record<string, unknown> }
  >;
};
const readPins = (file: string): PinFile | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PinFile) : undefined;

describe.skipIf(!redisAvailable)('pin approvals across replicas (built CLI, real Redis)', () => {
  beforeAll(async () => {
    upstream = await startHttpFixture('shifting', ['--era', 'legacy']);
    bench.onClose(() => upstream.close());
    const servers = { dict: { type: 'streamable-http', url: upstream.url } };
    replicas.push(
      ...(await Promise.all(
        (['a', 'b'] as const).map((name, index) =>
          bench.replica({ name, config: bench.config(servers, { pins: { file: pinFiles[index] } }) }),
        ),
      )),
    );
  }, 120_000);

  it('an approval on replica A serves the tool on replica B; forged notices change nothing', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const onA = await connectClient(`${a.base}/mcp`, 'legacy');
    const onB = await connectClient(`${b.base}/mcp`, 'legacy');
    clients.push(onA, onB);
    for (const [client, label] of [
      [onA, 'A'],
      [onB, 'B'],
    ] as const)
      await expect
        .poll(() => toolNames(client), { message: `${label} serves the reviewed lookup`, timeout: 15_000 })
        .toContain('dict__lookup');
    await expect
      .poll(() => readPins(pinFiles[1])?.servers.dict?.pins['tool:lookup'], {
        message: 'B pinned lookup on first use',
        timeout: 15_000,
      })
      .toBeDefined();
    const changesOnB = await watchToolChanges(onB, 'legacy');

    await onA.callTool({ name: 'dict__shift', arguments: { change: 'parameter' } });
    for (const [client, label] of [
      [onA, 'A'],
      [onB, 'B'],
    ] as const)
      await expect
        .poll(() => toolNames(client), {
          message: `${label} quarantines the changed lookup`,
          timeout: 15_000,
        })
        .not.toContain('dict__lookup');
    await expect
      .poll(() => readPins(pinFiles[1])?.servers.dict?.pending['tool:lookup'], {
        message: 'B recorded the change as pending',
        timeout: 15_000,
      })
      .toBeDefined();

    // Forged notices that dict's pins changed: in clear, and sealed under another cluster's key
    // (a notice only makes a replica read the sealed records again; these are not even read).
    const derived = deriveClusterKeys(parseClusterKey(bench.key));
    const channel = new RedisKeys(derived.namespace, derived.names).control();
    const forged = { server: 'dict', at: Date.now() };
    const otherKey = deriveClusterKeys(parseClusterKey(newClusterKey()));
    const elsewhere = new ClusterSeal(otherKey.records, derived.keyId);
    for (const sealed of [JSON.stringify(forged), elsewhere.seal(JSON.stringify(forged), `${channel}\npins`)])
      await bench.redis.cli('PUBLISH', channel, JSON.stringify({ from: 'intruder', kind: 'pins', sealed }));

    const before = changesOnB();
    const approve = await runCli(['pins', 'approve', 'dict/lookup', '--file', pinFiles[0]], bench.dir);
    expect(approve.stdout).toContain('approved dict/tool:lookup');
    // A serves it from its own file (the control), B from the relayed approval.
    await expect
      .poll(() => toolNames(onA), { message: 'A serves the approved lookup', timeout: 15_000 })
      .toContain('dict__lookup');
    await expect
      .poll(() => toolNames(onB), { message: 'B serves the approved lookup', timeout: 15_000 })
      .toContain('dict__lookup');
    await expect
      .poll(() => changesOnB(), { message: 'B told its client list_changed', timeout: 15_000 })
      .toBeGreaterThan(before);
    const called = await onB.callTool({ name: 'dict__lookup', arguments: { word: 'pin' } });
    expect(textOf(called as never)).toBe('definition of pin');

    // B's own file now pins A's approval (B serves it from memory as the write completes).
    const pinsA = readPins(pinFiles[0])?.servers.dict;
    await expect
      .poll(() => readPins(pinFiles[1])?.servers.dict?.pins['tool:lookup']?.fingerprint, {
        message: "B's pin file holds A's approval",
        timeout: 15_000,
      })
      .toBe(pinsA?.pins['tool:lookup']?.fingerprint);
    const pinsB = readPins(pinFiles[1])?.servers.dict;
    expect(pinsB?.pending['tool:lookup']).toBeUndefined();
    await expect
      .poll(() => b.stderr(), { message: "B's log names the replica that approved", timeout: 15_000 })
      .toContain('dict/tool:lookup approved on replica a');
  }, 90_000);
});
