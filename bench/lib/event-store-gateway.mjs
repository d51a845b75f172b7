// One library gateway of this build (dist/) as a replica of a cluster, in its own process, for
// the event store's figure (bench/lib/cluster-event-store.mjs): the bench echo server over stdio
// behind it, the Redis event store on or off. Prints `ready <url>` once it listens; the end of
// its standard input closes it.
//   MCPTOOLS_CLUSTER_KEY=… node bench/lib/event-store-gateway.mjs <redis url> <port> <name> on|off
import { createGateway, gatewayServerRequests } from '../../dist/gateway.js';
import { loadMcpServers, ToolRegistry } from '../../dist/index.js';
import { echoStdioCommand } from './servers.mjs';

const [redis, port, name, store] = process.argv.slice(2);
const registry = new ToolRegistry();
const config = { servers: { echo: { type: 'stdio', ...echoStdioCommand() } } };
const hub = await loadMcpServers(config, registry, gatewayServerRequests());
const gateway = createGateway({
  registry,
  hub,
  config,
  cluster: {
    redis,
    key: process.env.MCPTOOLS_CLUSTER_KEY,
    advertiseUrl: `http://127.0.0.1:${port}`,
    replicaId: name,
  },
  ...(store === 'on' ? {} : { eventStore: false }),
});
const { url } = await gateway.listen({ port: Number(port) });
process.stdout.write(`ready ${url}\n`);
process.stdin.resume();
process.stdin.once('end', async () => {
  await gateway.close();
  await hub.close();
  process.exit(0);
});
