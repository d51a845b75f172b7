// Child of bench/profile.mjs: connects ONE side, warms up, then profiles `calls` echo calls
// with the inspector (connect and warm-up stay out of the profile) and writes the profile.
//   node bench/profile-child.mjs <sdk|mcptools> <stdio|http> <calls> <out.cpuprofile> [url]
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { findTool, loadHub, loadMcptools, serverConfig } from './lib/mcptools-side.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand } from './lib/servers.mjs';

const [side, transport, callsArg, out, url] = process.argv.slice(2);
const calls = Number(callsArg);
const target = transport === 'http' ? { url } : { stdio: echoStdioCommand() };

let call;
let close;
if (side === 'sdk') {
  const { client } = await connectSdk({ ...target, mode: 'default' });
  await client.listTools(); // as the hub does: callTool consults the cached list
  call = () => client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  close = () => client.close();
} else {
  const lib = await loadMcptools();
  if (lib.unavailable) throw new Error(lib.unavailable);
  const { registry, provider } = await loadHub(
    lib,
    { echo: serverConfig({ ...target, mode: 'default' }) },
    1,
  );
  const tool = await findTool(registry, 'echo', 'echo');
  let id = 0;
  call = () => tool.execute(`profile-${id++}`, { text: 'hello' });
  close = () => provider.close();
}

for (let index = 0; index < 500; index++) await call();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const cpuStart = process.cpuUsage();
const start = performance.now();
for (let index = 0; index < calls; index++) await call();
const wallMs = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
const { profile } = await session.post('Profiler.stop');
session.disconnect();
writeFileSync(out, JSON.stringify(profile));
console.log(JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, calls }));
await close();
