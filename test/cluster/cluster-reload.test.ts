import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { connectClient, toolNames, watchToolChanges } from '../gateway/gateway-test-helpers.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useClusterBench } from './cluster-fixture.js';
import { type Replica, redisAvailable } from './cluster-harness.js';

/*
 * A configuration reload on one replica (SIGHUP) is announced to the others over the
 * control channel, and each re-reads its own file: one signal, every replica converges, each
 * reloads once (an announced reload is not announced again).
 */

const bench = useClusterBench();
const files = { a: bench.file('a.json'), b: bench.file('b.json') };
const replicas: Replica[] = [];
const clients = bench.clients;

const echo = () => ({ type: 'stdio', ...fixtureCommand('echo') });
function writeBoth(servers: Record<string, unknown>): void {
  for (const file of Object.values(files)) writeFileSync(file, JSON.stringify({ servers }));
}
const reloads = (replica: Replica) => replica.stderr().match(/reloaded \/\S+: /g)?.length ?? 0;

describe.skipIf(!redisAvailable)('configuration reload across replicas (built CLI, real Redis)', () => {
  beforeAll(async () => {
    writeBoth({ first: echo() });
    replicas.push(
      ...(await Promise.all(
        (['a', 'b'] as const).map((name) => bench.replica({ name, config: files[name] })),
      )),
    );
  }, 120_000);

  it('a SIGHUP to one replica reloads every replica from its own file, once each', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const onB = await connectClient(`${b.base}/mcp`, 'legacy');
    clients.push(onB);
    const heard = await watchToolChanges(onB, 'legacy');
    expect(await toolNames(onB)).not.toContain('second__echo');

    writeBoth({ first: echo(), second: echo() });
    process.kill(a.child.pid!, 'SIGHUP');

    await waitUntil(
      () => /replica a reloaded its configuration/.test(b.stderr()),
      'until replica b logged that replica a reloaded',
      20_000,
    );
    await waitUntil(
      () => /reloaded .*: 1 added, 0 removed/.test(b.stderr()),
      'until replica b logged its reload',
    );
    expect(/reloaded .*: 1 added, 0 removed/.test(a.stderr())).toBe(true);
    await waitUntil(
      async () => (await toolNames(onB)).includes('second__echo'),
      "until (await toolNames(onB)).includes('second__echo')",
      20_000,
    );
    const called = await onB.callTool({ name: 'second__echo', arguments: { text: 'converged' } });
    expect(called.isError).not.toBe(true);
    await waitUntil(() => heard() >= 1, 'until heard() >= 1', 10_000);
    // No ping-pong: B's reload, caused by A's announcement, is not announced back to A.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(reloads(a)).toBe(1);
    expect(reloads(b)).toBe(1);
    expect(a.stderr()).not.toMatch(/replica b reloaded/);
    expect(heard()).toBe(1);
  }, 90_000);
});
