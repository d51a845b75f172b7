import { beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { connectClient, toolNames } from '../gateway/gateway-test-helpers.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useClusterBench } from './cluster-fixture.js';
import { type Replica, redisAvailable } from './cluster-harness.js';

/*
 * A tool change that only one replica's upstream session was told of (the
 * shared upstream notifies only the session that made it) reaches a 2026 listener on the other
 * replica exactly once, over the control channel (Redis pub/sub), and that replica then serves
 * the new tool. The control: the change made through the listener's own replica.
 */

const bench = useClusterBench();
let upstream: HttpFixture;
const replicas: Replica[] = [];

describe.skipIf(!redisAvailable)('tool changes across replicas (built CLI, real Redis)', () => {
  beforeAll(async () => {
    upstream = await startHttpFixture('changing', ['--era', 'legacy', '--notify-caller-only']);
    bench.onClose(() => upstream.close());
    const config = bench.config({ changing: { type: 'streamable-http', url: upstream.url } });
    replicas.push(...(await Promise.all(['a', 'b'].map((name) => bench.replica({ name, config })))));
  }, 120_000);

  for (const { label, via } of [
    { label: 'case 1: a change only B saw reaches a listener on A once', via: 1 },
    { label: 'case 1 control: a change A saw itself reaches its listener once', via: 0 },
  ]) {
    it(label, async () => {
      const listener = await connectClient(`${replicas[0]!.base}/mcp`, 'modern');
      let heard = 0;
      listener.setNotificationHandler('notifications/tools/list_changed', () => {
        heard++;
      });
      await listener.listen({ toolsListChanged: true });
      const actor = await connectClient(`${replicas[via]!.base}/mcp`, 'legacy');
      const name = `added_via_${via}`;
      await actor.callTool({ name: 'changing__add_tool', arguments: { name } });
      await waitUntil(() => heard > 0, 'until heard > 0', 10_000);
      expect(await toolNames(listener)).toContain(`changing__${name}`);
      // Exactly once: nothing more arrives (B's own announcement is not relayed back as a second one).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(heard).toBe(1);
      await actor.close();
      await listener.close();
    }, 60_000);
  }
});
