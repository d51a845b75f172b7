// What idle 2025 sessions holding large results keep (the event store's bounds): N sessions of
// the SDK client in its default mode each call `echo` with a ~100 kB text C times through a
// library gateway of this build (dist/) and then stay idle. The store's counted bytes and the
// process's RSS, heap and external memory (after a forced GC) are taken before, right after
// the calls, and once the events are past `eventTtlMs`; the sessions are still open at the end
// (one more call each).
//   npm run build && node bench/run.mjs idle-sessions [--sessions=N] [--calls=N] [--ttl-ms=N]
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createGateway, gatewayServerRequests, MemoryEventStores } from '../dist/gateway.js';
import { loadMcpServers, ToolRegistry } from '../dist/index.js';
import { printTable } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand } from './lib/servers.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};
const sessions = flag('sessions', 8);
const calls = flag('calls', 90);
const ttlMs = flag('ttl-ms', 5000);
// A forced GC before each reading (without --expose-gc, V8 is asked for it at run time).
if (typeof globalThis.gc !== 'function') {
  setFlagsFromString('--expose-gc');
  globalThis.gc = runInNewContext('gc');
}

/** RSS and heap in use after a forced GC, in MiB. */
const memory = () => {
  globalThis.gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const m = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return [m(rss), m(heapUsed), m(external + arrayBuffers)];
};
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const registry = new ToolRegistry();
const hub = await loadMcpServers(
  { servers: { echo: { type: 'stdio', ...echoStdioCommand() } } },
  registry,
  gatewayServerRequests(),
);
const stores = new MemoryEventStores({ ttlMs });
const gateway = createGateway({ registry, hub, eventStore: stores });
const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
const clients = [];
for (let index = 0; index < sessions; index++) {
  const { client, era } = await connectSdk({ url, mode: 'default' });
  if (era !== 'legacy') throw new Error(`expected a 2025-era session, got ${era}`);
  clients.push(client);
}
const text = 'z'.repeat(100_000);
const rows = [['before the calls', ...memory(), mib(stores.bytes()), String(stores.events)]];
for (const client of clients)
  for (let index = 0; index < calls; index++)
    await client.callTool({ name: 'echo__echo', arguments: { text } });
rows.push(['after the calls', ...memory(), mib(stores.bytes()), String(stores.events)]);
while (stores.events > 0) await new Promise((resolve) => setTimeout(resolve, 250));
rows.push([`idle past eventTtlMs (${ttlMs} ms)`, ...memory(), mib(stores.bytes()), String(stores.events)]);
for (const client of clients)
  await client.callTool({ name: 'echo__echo', arguments: { text: 'still open' } });
printTable(
  `${sessions} idle 2025 sessions × ${calls} results of ~100 kB (library gateway, in-memory event store)`,
  ['when', 'RSS', 'heap used', 'external', 'store bytes', 'events'],
  rows,
);
for (const client of clients) await client.close();
stores.close();
await gateway.close();
await hub.close();
