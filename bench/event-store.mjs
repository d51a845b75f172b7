// What resumable response streams cost a 2025-era call: an SDK client in its default
// mode (2025 era, `initialize`, sessions) calls `echo` through two library gateways of this
// build (dist/) over the same kind of upstream (the bench echo server over stdio), one with the
// default event store (MemoryEventStores: a priming event and every message stored per call),
// one with `eventStore: false`. Rounds alternate between the two; p50/p90 per call, sequential.
//   npm run build && node bench/event-store.mjs [--rounds=N] [--calls=N]
import { createGateway, gatewayServerRequests } from '../dist/gateway.js';
import { loadMcpServers, ToolRegistry } from '../dist/index.js';
import { format, printTable } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand } from './lib/servers.mjs';
import { quantile } from './lib/stats.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};
const rounds = flag('rounds', 6);
const calls = flag('calls', 500);

async function start(eventStore) {
  const registry = new ToolRegistry();
  const hub = await loadMcpServers(
    { servers: { echo: { type: 'stdio', ...echoStdioCommand() } } },
    registry,
    gatewayServerRequests(),
  );
  const gateway = createGateway({ registry, hub, ...(eventStore === false ? { eventStore } : {}) });
  const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
  const { client, era } = await connectSdk({ url, mode: 'default' });
  if (era !== 'legacy') throw new Error(`expected a 2025-era session, got ${era}`);
  return {
    client,
    close: async () => {
      await client.close();
      await gateway.close();
      await hub.close();
    },
  };
}

const sides = { 'event store (default)': await start(undefined), 'no event store': await start(false) };
const samples = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
for (const side of Object.values(sides))
  for (let index = 0; index < 100; index++)
    await side.client.callTool({ name: 'echo__echo', arguments: { text: 'warm' } });
for (let round = 0; round < rounds; round++) {
  for (const [name, side] of round % 2 === 0 ? Object.entries(sides) : Object.entries(sides).reverse()) {
    for (let index = 0; index < calls; index++) {
      const started = process.hrtime.bigint();
      await side.client.callTool({ name: 'echo__echo', arguments: { text: `call ${index}` } });
      samples[name].push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
}
for (const side of Object.values(sides)) await side.close();
printTable(
  `2025-era SDK client → library gateway → echo (stdio), ${rounds} rounds × ${calls} sequential calls`,
  ['side', 'p50', 'p90'],
  Object.entries(samples).map(([name, values]) => [
    name,
    format.us(quantile(values, 0.5)),
    format.us(quantile(values, 0.9)),
  ]),
);
