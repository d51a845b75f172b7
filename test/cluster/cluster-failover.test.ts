import { describe, expect, it } from 'vitest';
import { childPids, survivors } from '../cli/cli-process.js';
import { connectClient } from '../gateway/gateway-test-helpers.js';
import { waitUntil } from '../helpers/wait-until.js';
import { eventually, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { legacyClient, useCluster } from './cluster-fixture.js';
import { type Replica, redisAvailable } from './cluster-harness.js';

/*
 * Redis stopped and restarted, a replica owning a 2025 session
 * SIGKILLed (adoption), a replica with a 2026 call in flight SIGKILLed. Real Redis, replicas of
 * the built CLI, the test's balancer; each case has a control that avoids the cross-replica path.
 */

const cluster = useCluster({
  echo: stdioFixture('echo'),
  notify: stdioFixture('notify'),
  changing: stdioFixture('changing'),
});

const readyz = async (replica: Replica) => (await fetch(`${replica.base}/readyz`)).status;

describe.skipIf(!redisAvailable)('a cluster losing Redis or a replica (built CLI, real Redis)', () => {
  it('case 12: with Redis stopped, 2026 calls and listens work, a cross-replica 2025 request gets 503, then recovers', async () => {
    cluster.balancer.route = (info) => (info.rpcMethod === 'initialize' ? 0 : 1);
    // Opened on A and never yet sent to B: B must ask Redis where it lives.
    cluster.balancer.route = () => 0;
    cluster.balancer.log.length = 0;
    const { client: legacy } = await legacyClient(cluster.balancer.url);
    await eventually(() => cluster.balancer.log.some((entry) => entry.method === 'GET'), 20_000);
    cluster.balancer.route = (info) => (info.rpcMethod === 'initialize' ? 0 : 1);
    const modernOnA = await connectClient(`${cluster.replicas[0]!.base}/mcp`, 'modern');
    const modernOnB = await connectClient(`${cluster.replicas[1]!.base}/mcp`, 'modern');
    let heard = 0;
    modernOnA.setNotificationHandler('notifications/tools/list_changed', () => {
      heard++;
    });
    await modernOnA.listen({ toolsListChanged: true });

    await cluster.redis.stop();
    await waitUntil(
      async () => (await readyz(cluster.replicas[1]!)) === 503,
      'until (await readyz(cluster.replicas[1]!)) === 503',
      30_000,
    );
    // 2026 traffic does not need Redis.
    for (const client of [modernOnA, modernOnB])
      expect(textOf(await client.callTool({ name: 'echo__echo', arguments: { text: 'no redis' } }))).toBe(
        'no redis',
      );
    await modernOnA.callTool({ name: 'changing__add_tool', arguments: { name: 'while_redis_down' } });
    await waitUntil(() => heard > 0, 'until heard > 0', 30_000);
    // The control: a 2025 request that stays on its owner works; one that needs another replica gets 503.
    const pinned = await legacyClient(`${cluster.replicas[0]!.base}/mcp`);
    expect((await pinned.client.listTools()).tools.length).toBeGreaterThan(0);
    await expect(legacy.listTools()).rejects.toThrow(/503|unavailable/i);

    await cluster.redis.start();
    await waitUntil(
      async () => (await readyz(cluster.replicas[1]!)) === 200,
      'until (await readyz(cluster.replicas[1]!)) === 200',
      45_000,
    );
    // The owner wrote its sessions' records again (this Redis kept nothing): B forwards again.
    expect(
      await eventually(async () => {
        try {
          return (await legacy.listTools()).tools.length > 0;
        } catch {
          return false;
        }
      }, 45_000),
    ).toBe(true);
    for (const client of [legacy, pinned.client, modernOnA, modernOnB]) await client.close();
  }, 240_000);

  for (const control of [false, true]) {
    it(`case 10${control ? ' control: SIGKILL the replica that does not own the session' : ': SIGKILL the owner of a 2025 session; another replica adopts it'}`, async () => {
      // The session lives on A; its requests reach A through B (forwarded).
      cluster.balancer.route = (info) => (info.rpcMethod === 'initialize' ? 0 : 1);
      if (control) cluster.balancer.route = () => 0;
      const { client, transport } = await legacyClient(cluster.balancer.url);
      const sessionId = transport.sessionId!;
      const logs: string[] = [];
      client.setNotificationHandler('notifications/message', (notification) => {
        logs.push(String(notification.params.data));
      });
      const updates: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', (notification) => {
        updates.push(notification.params.uri);
      });
      await client.setLoggingLevel('info');
      const counter = (await client.listResources()).resources.find((resource) =>
        resource.uri.endsWith('notify://counter'),
      )!.uri;
      await client.subscribeResource({ uri: counter });
      const inFlight = client.callTool({ name: 'echo__slow', arguments: { ms: 30_000 } }).then(
        () => 'answered',
        (error: unknown) => String(error),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));

      const killed = control ? 1 : 0;
      const started = Date.now();
      await cluster.replicas[killed]!.kill();
      if (!control) {
        // The call in flight on the dead owner fails (no hang).
        const outcome = await inFlight;
        expect(outcome).toMatch(/stopped before it answered/);
        expect(Date.now() - started).toBeLessThan(5000);
      }
      // Later calls work (after adoption by B, or on A untouched).
      expect(textOf(await client.callTool({ name: 'echo__echo', arguments: { text: 'after' } }))).toBe(
        'after',
      );
      expect(await cluster.recordField(sessionId, 'owner')).toBe(control ? 'a' : 'b');
      // The log level and the subscription survived.
      await client.callTool({
        name: 'notify__log',
        arguments: { level: 'warning', text: `after-kill-${control}` },
      });
      await waitUntil(
        () => logs.some((line) => line.includes(`after-kill-${control}`)),
        `until the log line after-kill-${control} arrived`,
        10_000,
      );
      await client.callTool({ name: 'notify__touch', arguments: { uri: 'notify://counter' } });
      await waitUntil(() => updates.includes(counter), 'until updates.includes(counter)', 10_000);
      await client.close();
      if (control) await inFlight;
      // Bring the killed replica back for the next case.
      await cluster.restart(killed);
    }, 90_000);
  }

  for (const control of [false, true]) {
    it(`case 8${control ? ' control: SIGKILL the other replica' : ''}: a 2026 call in flight on A when A is SIGKILLed`, async () => {
      cluster.balancer.route = () => 0;
      const client = await connectClient(cluster.balancer.url, 'modern');
      const children = childPids(cluster.replicas[0]!.child.pid!);
      expect(children.length).toBeGreaterThan(0);
      const inFlight = client
        .callTool({ name: 'echo__slow', arguments: { ms: control ? 1500 : 30_000 } })
        .then(
          () => 'answered',
          (error: unknown) => `failed: ${String(error)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const killed = control ? 1 : 0;
      const started = Date.now();
      await cluster.replicas[killed]!.kill();
      const outcome = await inFlight;
      if (control) expect(outcome).toBe('answered');
      else {
        expect(outcome).toMatch(/^failed/);
        expect(Date.now() - started).toBeLessThan(5000);
        // A retry succeeds on B; A's stdio children are gone.
        cluster.balancer.route = () => 1;
        expect(textOf(await client.callTool({ name: 'echo__echo', arguments: { text: 'retry' } }))).toBe(
          'retry',
        );
        expect(await survivors(children, 5000)).toEqual([]);
      }
      await client.close();
      await cluster.restart(killed);
    }, 90_000);
  }
});
