import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import {
  connectClient,
  type RunningGateway,
  startGateway,
  toolNames,
  watchToolChanges,
} from '../gateway/gateway-test-helpers.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { type Replica, redisAvailable } from './cluster-harness.js';

/*
 * A server an agent adds on one replica reaches every replica that shares the configuration
 * file: the reload is announced, each replica re-reads the file and the pin file before it
 * connects the server, so none trusts its tools on first use; one `mcptools pins approve` on the
 * shared pin file releases them everywhere, with `tools/list_changed` to each replica's clients.
 */

const OWNER_TOKEN = 'cluster-owner-token-0123456789ab';
const bench = useClusterBench();
const configFile = bench.file('mcptools.json');
const pinsFile = bench.file('pins.json');
let registry: RunningGateway;
const replicas: Replica[] = [];
const clients = bench.clients;

describe.skipIf(!redisAvailable)('add_server in a cluster (built CLI, real Redis)', () => {
  beforeAll(async () => {
    registry = await startGateway({ servers: { echo: stdioFixture('echo') } });
    bench.onClose(() => registry.close());
    writeFileSync(
      configFile,
      `${JSON.stringify({
        servers: {},
        registries: [{ url: new URL(registry.url).origin }],
        router: { catalogTools: true },
        pins: { file: pinsFile },
      })}\n`,
    );
    replicas.push(
      ...(await Promise.all(
        (['a', 'b'] as const).map((name) => bench.replica({ name, config: configFile, token: OWNER_TOKEN })),
      )),
    );
  }, 120_000);

  it('every replica connects the added server, holds its tools, and serves them once approved', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const headers = { authorization: `Bearer ${OWNER_TOKEN}` };
    const onA = await connectClient(`${a.base}/mcp`, 'legacy', {
      headers,
      capabilities: { elicitation: { form: {} } },
      prepare: (client) =>
        client.setRequestHandler('elicitation/create', async () => ({
          action: 'accept',
          content: { decision: 'allow-once' },
        })),
    });
    clients.push(onA);
    const onB = await connectClient(`${b.base}/mcp`, 'legacy', { headers });
    clients.push(onB);
    const heardOnB = await watchToolChanges(onB, 'legacy');

    const added = await onA.callTool({
      name: 'add_server',
      arguments: { name: '127.0.0.1/mcptools', as: 'found' },
    });
    expect(added.isError).toBeFalsy();
    await expect
      .poll(() => b.stderr(), { message: 'until replica b reloaded with the new server', timeout: 30_000 })
      .toMatch(/reloaded .*: 1 added, 0 removed/);
    // Replica b connected it without trusting it: its tools wait, on b as on a.
    expect(b.stderr()).toMatch(/found: tool "echo__echo" is new on "found"/);
    expect((await toolNames(onB)).some((name) => name.startsWith('found'))).toBe(false);
    expect((await toolNames(onA)).some((name) => name.startsWith('found'))).toBe(false);

    const approve = await runCli(['pins', 'approve', 'found', '--file', pinsFile], bench.dir);
    expect(approve.code).toBe(0);
    await expect
      .poll(() => heardOnB(), { message: 'until replica b announced the approved tools', timeout: 20_000 })
      .toBeGreaterThan(0);
    const live = await toolNames(onB);
    const echo = live.find((name) => name.startsWith('found') && name.endsWith('echo'));
    expect(echo).toBeDefined();
    const called = await onB.callTool({ name: echo!, arguments: { text: 'on b' } });
    expect(called.isError).not.toBe(true);
  }, 120_000);
});
