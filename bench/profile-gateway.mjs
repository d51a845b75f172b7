// Where does the gateway's time go under the gateway benchmark's load? Starts `mcptools serve`
// (the built CLI) under `node --cpu-prof` in front of 5 echo servers over stdio, drives it with
// SDK clients (`--http`: 10 sessions; `--stdio`: one), 50 calls in flight, then stops it
// (SIGTERM; the process exits 0 and Node writes the profile) and prints the heaviest functions.
//   node bench/profile-gateway.mjs [http|stdio] [calls] [--cpu-only] [--legacy] [--target=…] [--bursts=N]
// `--cpu-only` runs without the profiler and prints only the gateway's CPU per call.
// `--legacy` drives the gateway with 2025-era clients (`initialize`) instead of 2026-07-28 ones.
// `--target=` (HTTP only) decomposes the gateway's cost under the same driver: `sdk` profiles the
// SDK echo server over HTTP (bench/servers/echo-server.mjs, no mcptools), `native` the gateway
// serving one native echo tool with no MCP upstream (bench/servers/native-gateway.mjs, the build
// next to MCPTOOLS_CLI), `gateway` (the default) `mcptools serve` in front of the stdio echoes.
// native − sdk is the HTTP face's own cost per call; gateway − native the upstream hop's.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { analyzeCpuProfile } from './lib/cpu-profile.mjs';
import { cpuUsOf } from './lib/proc-cpu.mjs';
import { format, printTable } from './lib/report.mjs';
import { ECHO_SERVER, echoStdioCommand } from './lib/servers.mjs';
import { summarize } from './lib/stats.mjs';

const transport = process.argv[2] ?? 'http';
const calls = Number(process.argv[3] ?? 5000);
const cpuOnly = process.argv.includes('--cpu-only');
const legacy = process.argv.includes('--legacy');
// `--bursts=N` splits the measured calls into N bursts and also prints the least and the median
// CPU per call of a burst: on a loaded machine the least is the steadiest figure to compare builds.
const bursts = Number(
  process.argv.find((arg) => arg.startsWith('--bursts='))?.slice('--bursts='.length) ?? 1,
);
const target =
  process.argv.find((arg) => arg.startsWith('--target='))?.slice('--target='.length) ?? 'gateway';
if (!['sdk', 'native', 'gateway'].includes(target))
  throw new Error(`--target must be sdk, native or gateway`);
if (target !== 'gateway' && transport !== 'http') throw new Error('--target=sdk|native is for http only');
// MCPTOOLS_CLI points at another build (to compare two versions).
const CLI = process.env.MCPTOOLS_CLI ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const PROFILES = fileURLToPath(new URL('./results/profiles/', import.meta.url));
const UPSTREAMS = 5;
const IN_FLIGHT = 50;
mkdirSync(PROFILES, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'mcptools-profile-gateway-'));
const config = join(dir, 'mcptools.json');
const servers = Object.fromEntries(
  Array.from({ length: UPSTREAMS }, (_unused, index) => [`e${index}`, echoStdioCommand()]),
);
writeFileSync(config, JSON.stringify({ servers }));
const profileDir = join(dir, 'profile');
const nodeArgs = cpuOnly ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=100'];
const newClient = () =>
  new Client(
    { name: 'profile-gateway', version: '1.0.0' },
    legacy ? undefined : { versionNegotiation: { mode: 'auto' } },
  );

/** Read and write system calls of process `pid` so far (Linux /proc/<pid>/io). */
function syscallsOf(pid) {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const count = (name) => Number(new RegExp(`${name}: (\\d+)`).exec(io)?.[1] ?? Number.NaN);
  return { reads: count('syscr'), writes: count('syscw') };
}

let clients;
let stop;
let pid;
const NATIVE_GATEWAY = fileURLToPath(new URL('./servers/native-gateway.mjs', import.meta.url));
const httpArgs = {
  gateway: [CLI, 'serve', '--http', '127.0.0.1:0', '--config', config],
  native: [NATIVE_GATEWAY, join(CLI, '..', '..', 'index.js')],
  sdk: [ECHO_SERVER, '--http'],
}[target];
const toolName = (worker) => (target === 'gateway' ? `e${worker % UPSTREAMS}__echo` : 'echo');
if (transport === 'http') {
  const child = spawn(process.execPath, [...nodeArgs, ...httpArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /(?:listening on|LISTENING) (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  pid = child.pid;
  clients = await Promise.all(
    Array.from({ length: 10 }, async () => {
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
  stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
} else {
  const client = newClient();
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, CLI, 'serve', '--stdio', '--config', config],
    stderr: 'ignore',
  });
  await client.connect(stdio);
  pid = stdio.pid;
  clients = [client];
  // Closing stdin ends `serve --stdio`, which exits 0 (and so writes the profile).
  stop = () => client.close();
}

let started = 0;
const run = async (total) => {
  const begin = performance.now();
  started = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_unused, worker) => {
      while (started < total) {
        started++;
        const client = clients[worker % clients.length];
        await client.callTool({ name: toolName(worker), arguments: { text: 'hello' } });
      }
    }),
  );
  return performance.now() - begin;
};
await run(500);
const cpuBefore = cpuUsOf(pid) / 1000;
const syscallsBefore = syscallsOf(pid);
const perBurst = [];
let wallMs = 0;
for (let burst = 0; burst < bursts; burst++) {
  const burstBefore = cpuUsOf(pid);
  wallMs += await run(Math.round(calls / bursts));
  perBurst.push((cpuUsOf(pid) - burstBefore) / Math.round(calls / bursts));
}
const cpuMs = cpuUsOf(pid) / 1000 - cpuBefore;
const burstStats = summarize(perBurst);
const burstLine =
  bursts > 1
    ? `; per burst of ${Math.round(calls / bursts)}: least ${format.us(burstStats.min / 1000)}, median ${format.us(burstStats.p50 / 1000)}`
    : '';
const syscallsAfter = syscallsOf(pid);
const perCallSyscalls = `${((syscallsAfter.reads - syscallsBefore.reads) / calls).toFixed(2)} reads and ${((syscallsAfter.writes - syscallsBefore.writes) / calls).toFixed(2)} writes (system calls)`;
await stop();
if (cpuOnly) {
  console.log(
    `${calls} calls over ${transport}${target === 'gateway' ? '' : ` (${target})`}${legacy ? ' (2025-era clients)' : ''}, ${IN_FLIGHT} in flight: ${((calls / wallMs) * 1000).toFixed(0)} calls/s; gateway process CPU ${format.us(cpuMs / calls)} and ${perCallSyscalls} per call (from /proc)${burstLine}`,
  );
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const expected = transport === 'stdio' ? 2 : 1;
for (let tries = 0; tries < 100 && readdirSync(profileDir).length < expected; tries++)
  await new Promise((resolve) => setTimeout(resolve, 100));
// Over stdio the SDK client in `auto` mode probes the era on a throw-away sibling process
// first: that process writes a (short) profile too; the one that served the calls is the longest.
const profile = readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => readFileSync(join(profileDir, name), 'utf8'))
  .sort((left, right) => right.length - left.length)[0];
const out = `${PROFILES}gateway-${transport}${target === 'gateway' ? '' : `-${target}`}.cpuprofile`;
writeFileSync(out, profile);
rmSync(dir, { recursive: true, force: true });
const { byCategory, topSelf, ownInclusive } = analyzeCpuProfile(JSON.parse(profile));
const perCall = (ms) => format.us(ms / calls);
console.log(
  `${calls} calls, ${IN_FLIGHT} in flight: ${((calls / wallMs) * 1000).toFixed(0)} calls/s; gateway process CPU ${format.us(cpuMs / calls)} per call (from /proc, profiler overhead included). The profile covers the whole gateway process is profiled, start-up and warm-up included; per-call figures divide by ${calls})`,
);
printTable(
  'Gateway process CPU per call by where the code lives (self time; idle excluded)',
  ['category', 'per call'],
  Object.entries(byCategory)
    .sort((left, right) => right[1] - left[1])
    .map(([category, ms]) => [category, perCall(ms)]),
);
printTable(
  'Heaviest functions by self time',
  ['function', 'location', 'self / call'],
  topSelf.slice(0, 30).map((row) => [row.name, row.location, perCall(row.ms)]),
);
printTable(
  'mcptools functions by inclusive time',
  ['function', 'location', 'total / call'],
  ownInclusive.slice(0, 25).map((row) => [row.name, row.location, perCall(row.ms)]),
);
console.log(`profile: ${out}`);
