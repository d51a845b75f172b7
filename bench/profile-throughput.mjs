// Where the CPU of the gateway's throughput goes: the guard's calls/s measurement (10 SDK v2
// sessions → `mcptools serve --http` → 5 stdio echo servers, 50 calls in flight, 2025 era)
// beside the SDK client straight to the echo server over HTTP and the same shape through the bare
// SDK relay (bench/servers/sdk-relay.mjs: the SDK's two legs and nothing else), with every
// process's CPU time per call (from /proc) and the CPU profiles of the gateway and the relay
// under load, per layer and per function, each of its own bursts only.
//
//   node bench/run.mjs profile-throughput [--bursts=N] [--burst=N] [--top=N] [--cli=PATH] [--keep=DIR]
//
// On two cores every process of a side competes for the same CPU, so a side's calls/s is bound
// by the sum of its processes' CPU per call: client + gateway + stdio echo servers against
// client + HTTP echo server. A profile (`--cpu-prof`, written when the process exits) keeps the
// samples of its own side's bursts only (the process idles during the others').
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileLayers } from './lib/cpu-profile-layers.mjs';
import { cpuUsOf } from './lib/proc-cpu.mjs';
import { printTable, warnIfBusy } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand, startHttpEcho, startSdkRelay } from './lib/servers.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) =>
  args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const bursts = Number(flag('bursts', 6));
const perBurst = Number(flag('burst', 500));
const top = Number(flag('top', 30));
const cli = resolve(flag('cli', fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))));
const keep = flag('keep', undefined);
const UPSTREAMS = 5;
const SESSIONS = 10;
const IN_FLIGHT = 50;

const dir = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), 'mcptools-profile-throughput-'));
const relayDir = join(dir, 'relay');
for (const at of [dir, relayDir]) {
  mkdirSync(at, { recursive: true });
  for (const name of readdirSync(at)) if (name.endsWith('.cpuprofile')) rmSync(join(at, name));
}
const profileArgs = (at) => ['--cpu-prof', `--cpu-prof-dir=${at}`, '--cpu-prof-interval=100'];

/** The CPU time of `pid` and its children (the stdio echo servers), from /proc. */
function treeCpu(pid) {
  let total = cpuUsOf(pid);
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {}
  const childUs = children.reduce((sum, child) => sum + cpuUsOf(Number(child)), 0);
  total += childUs;
  return { self: cpuUsOf(pid), children: childUs, total };
}

async function startGateway(config) {
  const child = spawn(
    process.execPath,
    [...profileArgs(dir), cli, 'serve', '--http', '127.0.0.1:0', '--config', config],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise((done, fail) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) done(match[1]);
    });
    child.once('exit', (code) => fail(new Error(`gateway exited ${code}: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid,
    close: () =>
      new Promise((done) => {
        child.once('exit', done);
        child.kill('SIGINT');
      }),
  };
}

/** `profile` with only the samples taken inside `windows` (each sample's duration kept). */
function within(profile, windows) {
  const samples = [];
  const timeDeltas = [0];
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    at += profile.timeDeltas[index];
    const duration = profile.timeDeltas[index + 1] ?? 0;
    if (windows.some(([from, to]) => at >= from && at < to)) {
      samples.push(profile.samples[index]);
      timeDeltas.push(duration);
    }
  }
  return { ...profile, samples, timeDeltas };
}

async function burst(clients, tools, total) {
  let started = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_unused, worker) => {
      while (started < total) {
        started++;
        const result = await clients[worker % clients.length].callTool({
          name: tools[worker % tools.length],
          arguments: { text: 'hello' },
        });
        if (result.isError) throw new Error(JSON.stringify(result).slice(0, 200));
      }
    }),
  );
  return performance.now() - begin;
}

console.log(`gateway throughput profile — Node ${process.version}, ${new Date().toISOString()}`);
warnIfBusy();
const config = join(dir, 'mcptools.json');
writeFileSync(
  config,
  JSON.stringify({
    servers: Object.fromEntries(
      Array.from({ length: UPSTREAMS }, (_u, index) => [`e${index}`, echoStdioCommand()]),
    ),
  }),
);
const echoHttp = await startHttpEcho();
const gateway = await startGateway(config);
const relay = await startSdkRelay(UPSTREAMS, { nodeArgs: profileArgs(relayDir) });
const direct = [(await connectSdk({ url: echoHttp.url, mode: 'default' })).client];
const many = await Promise.all(
  Array.from(
    { length: SESSIONS },
    async () => (await connectSdk({ url: gateway.url, mode: 'default' })).client,
  ),
);
const relayed = await Promise.all(
  Array.from(
    { length: SESSIONS },
    async () => (await connectSdk({ url: relay.url, mode: 'default' })).client,
  ),
);
const gatewayTools = Array.from({ length: UPSTREAMS }, (_u, index) => `e${index}__echo`);
const sides = [
  { name: 'SDK v2 → echo, HTTP', clients: direct, tools: ['echo'], pid: echoHttp.pid },
  { name: 'serve --http, 10 sessions → 5 upstreams', clients: many, tools: gatewayTools, pid: gateway.pid },
  {
    name: 'bare SDK relay, 10 sessions → 5 upstreams',
    clients: relayed,
    tools: gatewayTools,
    pid: relay.pid,
  },
];
for (const side of sides) await burst(side.clients, side.tools, 300);
// Each side's bursts' time windows (monotonic µs, the clock of the profiles' timestamps).
const windows = new Map(sides.map((side) => [side.pid, []]));
const totals = sides.map(() => ({ ms: 0, client: 0, server: 0, children: 0 }));
for (let round = 0; round < bursts; round++) {
  for (const [index, side] of (round % 2 ? [...sides].reverse() : sides).entries()) {
    const at = round % 2 ? sides.length - 1 - index : index;
    const clientBefore = process.cpuUsage();
    const serverBefore = treeCpu(side.pid);
    const from = process.hrtime.bigint() / 1000n;
    totals[at].ms += await burst(side.clients, side.tools, perBurst);
    windows.get(side.pid).push([Number(from), Number(process.hrtime.bigint() / 1000n)]);
    const client = process.cpuUsage(clientBefore);
    const serverAfter = treeCpu(side.pid);
    totals[at].client += client.user + client.system;
    totals[at].server += serverAfter.self - serverBefore.self;
    totals[at].children += serverAfter.children - serverBefore.children;
  }
}
const calls = bursts * perBurst;
printTable(
  `CPU per call, µs (${bursts} bursts × ${perBurst} calls, ${IN_FLIGHT} in flight; /proc has 10 ms ticks)`,
  ['side', 'calls/s', 'client', 'server', 'its stdio servers', 'sum'],
  sides.map((side, index) => {
    const { ms, client, server, children } = totals[index];
    return [
      side.name,
      ((calls / ms) * 1000).toFixed(0),
      (client / calls).toFixed(0),
      (server / calls).toFixed(0),
      (children / calls).toFixed(0),
      ((client + server + children) / calls).toFixed(0),
    ];
  }),
);
await Promise.all([...direct, ...many, ...relayed].map((client) => client.close().catch(() => {})));
await gateway.close();
await relay.close();
await echoHttp.close();
for (const [who, at, pid] of [
  ['The gateway', dir, gateway.pid],
  ['The bare SDK relay', relayDir, relay.pid],
]) {
  const file = readdirSync(at).find((name) => name.includes(`.${pid}.`) && name.endsWith('.cpuprofile'));
  if (file === undefined) continue;
  const { totalUs, layers, functions } = profileLayers(
    within(JSON.parse(readFileSync(join(at, file), 'utf8')), windows.get(pid)),
  );
  printTable(
    `${who}: self time per layer during its bursts (${(totalUs / 1000).toFixed(0)} ms sampled)`,
    ['layer', 'ms', 'share'],
    [...layers].map(([layer, us]) => [
      layer,
      (us / 1000).toFixed(1),
      `${((us / totalUs) * 100).toFixed(1)} %`,
    ]),
  );
  printTable(
    `${who}: top ${top} functions by self time`,
    ['function', 'ms', 'share'],
    [...functions]
      .slice(0, top)
      .map(([name, us]) => [name, (us / 1000).toFixed(1), `${((us / totalUs) * 100).toFixed(1)} %`]),
  );
}
if (!keep) rmSync(dir, { recursive: true, force: true });
else console.log(`profiles kept in ${dir}`);
process.exit(0);
