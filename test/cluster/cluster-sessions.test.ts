import { afterEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { initializeRequest } from '../helpers/initialize-request.js';
import { waitUntil } from '../helpers/wait-until.js';
import { eventually, textOf } from '../mcp/hub-test-helpers.js';
import { legacyClient, useCluster } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * 2025-era sessions in a cluster: a session initialized on replica A is
 * served through replica B — tools, the GET stream, logging/setLevel, DELETE — by forwarding,
 * and the same flow pinned to A is the control.
 */

const cluster = useCluster({
  echo: fixtureCommand('echo'),
  notify: fixtureCommand('notify'),
  changing: fixtureCommand('changing'),
});

async function sessionKeys(): Promise<string[]> {
  return (await cluster.redis.cli('--scan', '--pattern', 'mcptools:*:session:*')).split('\n').filter(Boolean);
}

describe.skipIf(!redisAvailable)('a 2025 session across replicas (built CLI, real Redis)', () => {
  afterEach(() => {
    cluster.balancer.log.length = 0;
  });

  for (const { label, otherReplica } of [
    { label: 'through B (forwarded to A)', otherReplica: 1 },
    { label: 'control: everything on A', otherReplica: 0 },
  ]) {
    it(`serves tools, the GET stream, logging/setLevel and DELETE ${label}`, async () => {
      // initialize lands on A; every later request on `otherReplica`.
      cluster.balancer.route = (info) => (info.rpcMethod === 'initialize' ? 0 : otherReplica);
      const { client, transport } = await legacyClient(cluster.balancer.url);
      const sessionId = transport.sessionId!;
      expect(sessionId).toBeTruthy();

      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('echo__echo');
      expect(textOf(await client.callTool({ name: 'echo__echo', arguments: { text: 'hi' } }))).toBe('hi');

      // The GET stream: a tool list change reaches the client over it.
      let changes = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        changes++;
      });
      const logs: string[] = [];
      client.setNotificationHandler('notifications/message', (notification) => {
        logs.push(String(notification.params.data));
      });
      await eventually(() => cluster.balancer.log.some((entry) => entry.method === 'GET'), 5000);
      const name = `added_${otherReplica}`;
      await client.callTool({ name: 'changing__add_tool', arguments: { name } });
      await waitUntil(() => changes > 0, 'until changes > 0', 10_000);

      // logging/setLevel: recorded in Redis, and upstream logs come through.
      await client.setLoggingLevel('info');
      const recordKey = cluster.recordKey(sessionId);
      expect(await sessionKeys()).toContain(recordKey);
      await waitUntil(
        async () => (await cluster.recordField(sessionId, 'logLevel')) === 'info',
        "until the session record's logLevel is info",
      );
      await client.callTool({
        name: 'notify__log',
        arguments: { level: 'warning', text: `log-${otherReplica}` },
      });
      await waitUntil(
        () => logs.some((line) => line.includes(`log-${otherReplica}`)),
        `until the log line log-${otherReplica} arrived`,
        10_000,
      );

      // The session stayed A's: B forwarded, it did not adopt.
      expect(await cluster.recordField(sessionId, 'owner')).toBe('a');
      expect(
        cluster.balancer.log
          .filter((entry) => entry.rpcMethod !== 'initialize')
          .every((entry) => entry.index === otherReplica),
      ).toBe(true);

      // DELETE (through B) ends the session on A and cancels its call in flight there.
      const slow = client.callTool({ name: 'echo__slow', arguments: { ms: 20_000 } }).then(
        () => 'answered',
        (error: unknown) => `failed: ${String(error)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      await transport.terminateSession();
      await client.close();
      await slow;
      await waitUntil(
        async () => !(await sessionKeys()).includes(recordKey),
        'until the session record is gone from Redis',
      );
      const check = await legacyClient(`${cluster.replicas[0]!.base}/mcp`);
      const counted = await check.client.callTool({ name: 'echo__cancelled_count', arguments: {} });
      expect(Number(textOf(counted))).toBeGreaterThanOrEqual(otherReplica === 1 ? 1 : 2);
      await check.client.close();
    }, 60_000);
  }

  it('SIGTERM drains: /readyz fails, no new session, the call in flight finishes, sessions are handed over', async () => {
    cluster.balancer.route = (info) => (info.rpcMethod === 'initialize' ? 0 : 1);
    const { client } = await legacyClient(cluster.balancer.url);
    const inFlight = client.callTool({ name: 'echo__slow', arguments: { ms: 2500 } }).then(
      () => 'answered',
      (error: unknown) => `failed: ${String(error)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const a = cluster.replicas[0]!;
    a.child.kill('SIGTERM');
    await waitUntil(
      async () => (await fetch(`${a.base}/readyz`)).status === 503,
      'until replica a answers /readyz with 503',
      5000,
    );
    const refused = await fetch(`${a.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initializeRequest({ client: 'late', version: '2025-06-18' })),
    });
    expect(refused.status).toBe(503);
    expect(await inFlight).toBe('answered');
    await a.exited;
    // Handed over, not left to the heartbeat: B adopts on the next request.
    expect(textOf(await client.callTool({ name: 'echo__echo', arguments: { text: 'moved' } }))).toBe('moved');
    expect(cluster.replicas[1]!.stderr()).toMatch(/adopted a session from a replica that handed it over/);
    await client.close();
    await cluster.restart(0);
  }, 60_000);
});
