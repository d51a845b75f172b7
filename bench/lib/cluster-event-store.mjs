// What resumability costs a 2025 call in cluster mode: library gateways of this build (dist/),
// each in its own process as a gateway runs (bench/lib/event-store-gateway.mjs), replicas of one
// cluster on the same Redis: one with its default event store (Redis Streams) and two with
// `eventStore: false`, the second an A/A control (two sides that differ in nothing: the noise of
// the figure). A 2025 SDK client per gateway in this process; sequential calls, interleaved rounds.
import { fileURLToPath } from 'node:url';
import { freePort, newClusterKey } from '../../test/cluster/cluster-harness.ts';
import { connect, side } from './cluster-load.mjs';
import { startReadyChild } from './ready-child.mjs';

const GATEWAY = fileURLToPath(new URL('./event-store-gateway.mjs', import.meta.url));

/** Starts the gateways; `sides` (resumability on, off, off again) and `close()`. */
export async function eventStoreSides(redisUrl) {
  const key = newClusterKey();
  const started = [];
  const start = async (name, store, label) => {
    const gateway = await startReadyChild(GATEWAY, [redisUrl, String(await freePort()), name, store], {
      MCPTOOLS_CLUSTER_KEY: key,
    });
    const client = await connect(gateway.url, 'legacy');
    started.push({ gateway, client });
    return side(label, [client], [gateway.pid]);
  };
  const sides = [
    await start('store-on', 'on', '2025 · resumability on (Redis event store)'),
    await start('store-off', 'off', '2025 · resumability off'),
    await start('store-off-2', 'off', '2025 · resumability off, again (A/A control)'),
  ];
  return {
    sides,
    async close() {
      for (const { gateway, client } of started) {
        await client.close();
        await gateway.stop();
      }
    },
  };
}
