// What resumability costs a 2025 call in cluster mode: two library gateways of this build
// (dist/) in this process, both replicas of a cluster on the same Redis, one with its default
// event store (Redis Streams: each call's priming event and answer stored) and one with
// `eventStore: false`. A 2025 SDK client per gateway; sequential calls, interleaved rounds.
import { createGateway, gatewayServerRequests, loadMCPServers, ToolRegistry } from '../../dist/index.js';
import { freePort, newClusterKey } from '../../test/cluster/cluster-harness.ts';
import { connect, side } from './cluster-load.mjs';
import { echoStdioCommand } from './servers.mjs';

/** Starts the two gateways; `sides` (resumability on, off) and `close()`. */
export async function eventStoreSides(redisUrl) {
  const key = newClusterKey();
  const started = [];
  const start = async (name, eventStore) => {
    const registry = new ToolRegistry();
    const config = { servers: { echo: { type: 'stdio', ...echoStdioCommand() } } };
    const provider = await loadMCPServers(config, registry, gatewayServerRequests());
    const port = await freePort();
    const gateway = createGateway({
      registry,
      provider,
      config,
      cluster: { redis: redisUrl, key, advertiseUrl: `http://127.0.0.1:${port}`, replicaId: name },
      ...(eventStore ? {} : { eventStore: false }),
    });
    const { url } = await gateway.listen({ port });
    const client = await connect(url, 'legacy');
    started.push({ gateway, provider, client });
    return side(`2025 · resumability ${eventStore ? 'on (Redis event store)' : 'off'}`, [client]);
  };
  const sides = [await start('store-on', true), await start('store-off', false)];
  return {
    sides,
    async close() {
      for (const { gateway, provider, client } of started) {
        await client.close();
        await gateway.close();
        await provider.close();
      }
    },
  };
}
