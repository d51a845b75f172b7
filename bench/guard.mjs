// The call-path guard: in one run, every figure a change to the call path must keep, each against
// its direct reference and a control measured in the same interleaved rounds.
//
//   npm run bench:guard            (build, then node bench/run.mjs guard)
//   node bench/run.mjs guard [--rounds=N] [--calls=N] [--burst=N] [--rss=N] [--peers=mastra,mcporter,langchain]
//                            [--parts=latency,throughput,rss|stdio] [--slice=N] [--base=DIR] [--quick]
//
// Latency (sequential `echo` calls, each timed alone; `--calls` per side per round, the sides
// taking turns in slices of `--slice` calls, 5 by default, in a rotating order; the p50 of each
// side in each round, ratios taken per round, median and range of the rounds reported;
// `--parts=stdio` measures the stdio call's sides only):
// - the gateway hop, SDK v2 client → `mcptools serve --http` (the built CLI) → the echo server
//   over stdio, in the 2025 era (default client, `initialize` session; upstream 2025) and in the
//   2026-07-28 era (`auto` client; upstream `protocol: "auto"`), ÷ (direct stdio + direct HTTP)
//   of the same era: the two hops it replaces; and ÷ mcp-proxy (peer gateway, 2025) and ÷ the
//   bare SDK relay of the same era (bench/servers/sdk-relay.mjs: the SDK's two legs and nothing
//   else, the floor of a gateway built on the SDK);
// - the stdio echo call of mcptools' hub (`Tool.execute`) ÷ the SDK v2 client in its default
//   mode, beside the SDK v1 client (and the peers named by `--peers`).
// Throughput: calls/s with 50 in flight, the gateway (10 sessions over 5 upstreams, 2025) ÷ the
// SDK client straight to the echo server over HTTP, bursts interleaved; beside it mcp-proxy and
// the bare SDK relay in the same shape, and the CPU each side spends per call (the clients in
// this process, the server's process tree from /proc).
// RSS: fresh processes alternating the SDK client and mcptools (`--rss` each): import, connect
// 1 and 20 stdio echo servers and list their tools, full collection, RSS.
//
// Controls: a second gateway process and a second hub of the same build (A/A), so the spread of
// their per-round ratio is the noise of the run; `--base=DIR` makes that second side another
// build instead (a tree with `dist/` built and `node_modules`), an A/B with this build as A.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureMcpProxy, startGatewayHttp, startMcpProxy } from './gateway.mjs';
import { loadMcpTools } from './lib/mcptools-side.mjs';
import { treeCpuUsOf } from './lib/proc-cpu.mjs';
import { format, printTable, warnIfBusy, writeResult } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand, settle, startHttpEcho, startSdkRelay } from './lib/servers.mjs';
import { loadSides, mcptoolsSide, rotated } from './lib/sides.mjs';
import { quantile } from './lib/stats.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
};
const quick = args.includes('--quick');
const rounds = Number(flag('rounds', quick ? 4 : 12));
const perRound = Number(flag('calls', quick ? 40 : 100));
const perBurst = Number(flag('burst', quick ? 200 : 500));
const rssRepetitions = Number(flag('rss', quick ? 1 : 3));
const warmup = quick ? 50 : 200;
const parts = new Set(flag('parts', 'latency,throughput,rss').split(','));
// Calls per side before the next side's turn within a round (0: each side's calls in one block).
const slice = Number(flag('slice', 5));
// `--parts=stdio`: the stdio call's sides only (no gateway, no mcp-proxy), for quick checks of it.
const stdioOnly = parts.has('stdio');
if (stdioOnly) parts.add('latency');
const peerNames = flag('peers', '').split(',').filter(Boolean);
const base = flag('base', undefined);
const baseDir = base === undefined ? undefined : resolve(base);
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const BASE_CLI = baseDir === undefined ? CLI : join(baseDir, 'dist', 'cli', 'main.js');
const BASE_DIST = baseDir === undefined ? undefined : pathToFileURL(join(baseDir, 'dist', '/'));
const control = baseDir === undefined ? 'A′' : 'base';
const UPSTREAMS = 5;
const SESSIONS = 10;
const IN_FLIGHT = 50;

/** Median, quartiles and range of per-round ratios `values`. */
const spread = (values) => ({
  median: quantile(values, 0.5),
  p25: quantile(values, 0.25),
  p75: quantile(values, 0.75),
  min: Math.min(...values),
  max: Math.max(...values),
});
const showSpread = (value) =>
  value === undefined
    ? '—'
    : `${format.ratio(value.median)} (p25–p75 ${value.p25.toFixed(2)}–${value.p75.toFixed(2)}; ${value.min.toFixed(2)}–${value.max.toFixed(2)})`;

/** A timed side: `call()` makes one echo call and checks its answer. */
function sdkTimed(name, client, tool, era) {
  return {
    name,
    era,
    async call(worker = 0) {
      const result = await client.callTool({ name: tool(worker), arguments: { text: 'hello' } });
      if (result.isError || result.content?.[0]?.text !== 'hello')
        throw new Error(`${name}: not an echo: ${JSON.stringify(result).slice(0, 200)}`);
    },
    close: () => client.close().catch(() => {}),
  };
}

/** A side of lib/sides.mjs, opened on one target, as a timed side. */
async function openSide(side, name, target) {
  const handle = await side.open([target]);
  return {
    name,
    era: handle.era,
    async call() {
      if ((await handle.call(0, 'hello')) !== 'hello') throw new Error(`${name}: not an echo`);
    },
    close: () => handle.close(),
  };
}

/** Several SDK sessions to one URL; calls rotate over sessions and tools. */
async function sessions(name, url, count, mode, tools) {
  const connected = await Promise.all(Array.from({ length: count }, () => connectSdk({ url, mode })));
  return {
    name,
    era: connected[0].era,
    async call(worker = 0) {
      const { client } = connected[worker % count];
      const result = await client.callTool({
        name: tools[worker % tools.length],
        arguments: { text: 'hello' },
      });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result).slice(0, 200)}`);
    },
    close: () => Promise.all(connected.map(({ client }) => client.close().catch(() => {}))),
  };
}

/**
 * Rounds of `perRound` sequential calls per side; per side, the p50 of each round. Within a round
 * the sides take turns in slices of `slice` calls (the order rotated at each slice), so every
 * side's calls are spread over the whole round and two sides compared in a ratio meet the same
 * load, collections and core: with each side's calls in one block (`--slice=0`), the hub and the
 * SDK client ran seconds apart in a round of 14 sides, and the per-round ratio took the
 * difference of those moments for a difference of the clients.
 */
async function latencyRounds(sides) {
  for (const side of sides) for (let index = 0; index < warmup; index++) await side.call();
  const p50s = Object.fromEntries(sides.map((side) => [side.name, []]));
  const cpuPerCall = Object.fromEntries(sides.map((side) => [side.name, []]));
  const size = slice > 0 ? Math.min(slice, perRound) : perRound;
  for (let round = 0; round < rounds; round++) {
    const times = Object.fromEntries(sides.map((side) => [side.name, []]));
    const cpu = Object.fromEntries(sides.map((side) => [side.name, 0]));
    for (let done = 0, turn = 0; done < perRound; done += size, turn++) {
      for (const side of rotated(sides, round + turn)) {
        // This process's CPU while only this side's calls run: the client's work per call (its
        // server is another process), which the machine's load inflates far less than wall time.
        const before = process.cpuUsage();
        for (let index = done; index < Math.min(done + size, perRound); index++) {
          const start = performance.now();
          await side.call();
          times[side.name].push(performance.now() - start);
        }
        const used = process.cpuUsage(before);
        cpu[side.name] += used.user + used.system;
      }
    }
    for (const side of sides) {
      p50s[side.name].push(quantile(times[side.name], 0.5));
      cpuPerCall[side.name].push(cpu[side.name] / perRound);
    }
  }
  return { p50s, cpuPerCall };
}

/** Calls per second with `IN_FLIGHT` outstanding, `total` calls in all. */
async function burst(side, total) {
  let started = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_unused, worker) => {
      while (started < total) {
        started++;
        await side.call(worker);
      }
    }),
  );
  return (total / (performance.now() - begin)) * 1000;
}

/** One fresh process of bench/memory-child.mjs `connected`: RSS after import + N servers. */
function rssChild(side, size, dist) {
  const child = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));
  const env = { ...process.env, ...(dist ? { MCPTOOLS_BENCH_DIST: dist.href } : {}) };
  const output = execFileSync(process.execPath, ['--expose-gc', child, 'connected', side, String(size)], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(output.trim().split('\n').at(-1));
}

/**
 * The gateway's configuration: `UPSTREAMS` echo servers in the 2025 era and one `m0` in
 * 2026-07-28-first. `modeName` is how the tree under test spells that mode: a base tree from
 * before the eras' names spells it `auto`.
 */
function writeGatewayConfig(dir, file = 'mcptools.json', modeName = '2026-07-28-first') {
  const path = join(dir, file);
  const servers = Object.fromEntries(
    Array.from({ length: UPSTREAMS }, (_unused, index) => [`e${index}`, echoStdioCommand()]),
  );
  servers.m0 = { ...echoStdioCommand(), protocol: modeName };
  writeFileSync(path, JSON.stringify({ servers }));
  return path;
}

/** Whether the tree at `root` accepts the eras' names (`2026-07-28-first`) in `protocol`. */
function knowsEraNames(root) {
  const source = join(root, 'src', 'config', 'protocol-mode.ts');
  return existsSync(source) && readFileSync(source, 'utf8').includes('2026-07-28-first');
}

const rows = [];
const result = {
  rounds,
  perRound,
  slice,
  perBurst,
  rssRepetitions,
  base: baseDir ?? null,
  latency: {},
  ratios: {},
};
const open = [];
const started = [];
const dir = mkdtempSync(join(tmpdir(), 'mcptools-bench-guard-'));
console.log(`mcptools call-path guard — Node ${process.version}, ${new Date().toISOString()}`);
warnIfBusy();
try {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  if (!existsSync(BASE_CLI)) throw new Error(`${BASE_CLI} is missing: build the base tree first`);
  const config = writeGatewayConfig(dir);
  const baseConfig =
    baseDir === undefined || knowsEraNames(baseDir)
      ? config
      : writeGatewayConfig(dir, 'mcptools-base.json', 'auto');
  if (parts.has('latency') || parts.has('throughput')) {
    let echoHttp;
    let gateway;
    let gatewayB;
    let proxy;
    let relay;
    let relay26;
    if (!stdioOnly) {
      ensureMcpProxy();
      echoHttp = await startHttpEcho();
      started.push(echoHttp);
      gateway = await startGatewayHttp(config);
      started.push(gateway);
      gatewayB = await startGatewayHttp(baseConfig, BASE_CLI);
      started.push(gatewayB);
      proxy = await startMcpProxy();
      started.push(proxy);
      relay = await startSdkRelay(UPSTREAMS);
      started.push(relay);
      relay26 = await startSdkRelay(1, { era: '2026-07-28' });
      started.push(relay26);
    }
    const stdio = { stdio: echoStdioCommand() };
    const v2 = async (target, mode, name, tool = 'echo') => {
      const { client, era } = await connectSdk({ ...target, mode });
      const side = sdkTimed(name, client, () => tool, era);
      open.push(side);
      return side;
    };

    if (parts.has('latency')) {
      const lib = await loadMcpTools();
      if (lib.unavailable) throw new Error(lib.unavailable);
      const libB = BASE_DIST ? await loadMcpTools(BASE_DIST) : lib;
      if (libB.unavailable) throw new Error(`base: ${libB.unavailable}`);
      const { sides: peers, skipped } = await loadSides(['sdk-v1', ...peerNames]);
      for (const [name, reason] of Object.entries(skipped)) console.log(`${name} skipped: ${reason}`);
      const side = {
        stdio25: await v2(stdio, 'default', 'SDK v2 → echo, stdio'),
        stdio25B: await v2(stdio, 'default', 'SDK v2 → echo, stdio (A′)'),
      };
      if (!stdioOnly)
        Object.assign(side, {
          http25: await v2({ url: echoHttp.url }, 'default', 'SDK v2 → echo, HTTP'),
          hop25: await v2({ url: gateway.url }, 'default', 'hop: SDK v2 → serve --http → stdio', 'e0__echo'),
          hop25B: await v2(
            { url: gatewayB.url },
            'default',
            `hop (${control}): SDK v2 → serve --http → stdio`,
            'e0__echo',
          ),
          proxy25: await v2({ url: proxy.url }, 'default', 'SDK v2 → mcp-proxy → stdio'),
          relay25: await v2({ url: relay.url }, 'default', 'SDK v2 → bare SDK relay → stdio', 'e0__echo'),
          stdio26: await v2(stdio, 'auto', 'SDK v2 auto → echo, stdio'),
          http26: await v2({ url: echoHttp.url }, 'auto', 'SDK v2 auto → echo, HTTP'),
          hop26: await v2(
            { url: gateway.url },
            'auto',
            'hop: SDK v2 auto → serve --http → stdio',
            'm0__echo',
          ),
          hop26B: await v2(
            { url: gatewayB.url },
            'auto',
            `hop (${control}): SDK v2 auto → serve --http → stdio`,
            'm0__echo',
          ),
          relay26: await v2({ url: relay26.url }, 'auto', 'SDK v2 auto → bare SDK relay → stdio', 'e0__echo'),
        });
      side.hub = await openSide(
        mcptoolsSide(lib, undefined, 'mcptools'),
        'mcptools hub → echo, stdio',
        stdio,
      );
      side.hubB = await openSide(
        mcptoolsSide(libB, undefined, `mcptools-${control}`),
        `mcptools hub (${control}) → echo, stdio`,
        stdio,
      );
      open.push(side.hub, side.hubB);
      const others = [];
      for (const peer of peers) {
        const opened = await openSide(peer, `${peer.name} → echo, stdio`, stdio);
        open.push(opened);
        others.push(opened);
      }
      const all = [...Object.values(side), ...others];
      for (const item of all) await item.call();
      console.log(
        `\nlatency: ${rounds} rounds × ${perRound} sequential calls per side, ${all.length} sides interleaved`,
      );
      const { p50s, cpuPerCall } = await latencyRounds(all);
      const cpuRatio = (over, under) =>
        spread(cpuPerCall[over.name].map((value, round) => value / cpuPerCall[under.name][round]));
      const perRoundRatio = (over, under) =>
        spread(p50s[over.name].map((value, round) => value / under(round)));
      const of = (item) => (round) => p50s[item.name][round];
      const sum = (left, right) => (round) => p50s[left.name][round] + p50s[right.name][round];
      const ratios = {
        ...(stdioOnly
          ? {}
          : {
              hop2025: perRoundRatio(side.hop25, sum(side.stdio25, side.http25)),
              hop2025Control: perRoundRatio(side.hop25B, sum(side.stdio25, side.http25)),
              hop2025AA: perRoundRatio(side.hop25, of(side.hop25B)),
              hop2025VsMcpProxy: perRoundRatio(side.hop25, of(side.proxy25)),
              hop2025Relay: perRoundRatio(side.relay25, sum(side.stdio25, side.http25)),
              hop2025VsRelay: perRoundRatio(side.hop25, of(side.relay25)),
              hop2026: perRoundRatio(side.hop26, sum(side.stdio26, side.http26)),
              hop2026Control: perRoundRatio(side.hop26B, sum(side.stdio26, side.http26)),
              hop2026AA: perRoundRatio(side.hop26, of(side.hop26B)),
              hop2026Relay: perRoundRatio(side.relay26, sum(side.stdio26, side.http26)),
              hop2026VsRelay: perRoundRatio(side.hop26, of(side.relay26)),
            }),
        stdioCall: perRoundRatio(side.hub, of(side.stdio25)),
        stdioCallControl: perRoundRatio(side.hubB, of(side.stdio25)),
        stdioCallAA: perRoundRatio(side.hub, of(side.hubB)),
        sdkAA: perRoundRatio(side.stdio25B, of(side.stdio25)),
        stdioCallCpu: cpuRatio(side.hub, side.stdio25),
        stdioCallCpuAA: cpuRatio(side.hub, side.hubB),
        sdkCpuAA: cpuRatio(side.stdio25B, side.stdio25),
        ...Object.fromEntries(others.map((item) => [item.name, perRoundRatio(item, of(side.stdio25))])),
      };
      result.latency = Object.fromEntries(
        all.map((item) => [
          item.name,
          { era: item.era, p50PerRound: p50s[item.name], cpuPerCallPerRound: cpuPerCall[item.name] },
        ]),
      );
      result.ratios = ratios;
      const median = (item) => format.us(quantile(p50s[item.name], 0.5));
      printTable(
        'Latency: median over rounds of each side’s p50',
        ['side', 'era', 'p50'],
        all.map((item) => [item.name, item.era ?? '—', median(item)]),
      );
      if (!stdioOnly)
        rows.push(
          ['hop 2025 p50 ÷ (direct stdio + direct HTTP)', showSpread(ratios.hop2025), '≤ 1.10×'],
          [`  the same, ${control} gateway`, showSpread(ratios.hop2025Control), ''],
          [`  hop ÷ hop ${control} (control)`, showSpread(ratios.hop2025AA), '1.00×'],
          ['hop 2025 p50 ÷ mcp-proxy', showSpread(ratios.hop2025VsMcpProxy), 'reported'],
          ['  bare SDK relay ÷ (direct stdio + direct HTTP)', showSpread(ratios.hop2025Relay), 'the floor'],
          ['hop 2025 p50 ÷ bare SDK relay', showSpread(ratios.hop2025VsRelay), 'reported'],
          ['hop 2026-07-28 p50 ÷ (direct stdio + direct HTTP)', showSpread(ratios.hop2026), '≤ 1.10×'],
          [`  the same, ${control} gateway`, showSpread(ratios.hop2026Control), ''],
          [`  hop ÷ hop ${control} (control)`, showSpread(ratios.hop2026AA), '1.00×'],
          ['  bare SDK relay ÷ (direct stdio + direct HTTP)', showSpread(ratios.hop2026Relay), 'the floor'],
          ['hop 2026-07-28 p50 ÷ bare SDK relay', showSpread(ratios.hop2026VsRelay), 'reported'],
        );
      rows.push(
        ['stdio call p50, mcptools ÷ SDK v2', showSpread(ratios.stdioCall), '≤ 0.85×'],
        [`  the same, ${control} hub`, showSpread(ratios.stdioCallControl), ''],
        [`  hub ÷ hub ${control} (control)`, showSpread(ratios.stdioCallAA), '1.00×'],
        ['  SDK v2 A′ ÷ SDK v2 (control)', showSpread(ratios.sdkAA), '1.00×'],
        ['stdio call, client CPU per call, mcptools ÷ SDK v2', showSpread(ratios.stdioCallCpu), 'reported'],
        [`  hub ÷ hub ${control} (control)`, showSpread(ratios.stdioCallCpuAA), '1.00×'],
        ['  SDK v2 A′ ÷ SDK v2 (control)', showSpread(ratios.sdkCpuAA), '1.00×'],
        ...others.map((item) => [`  ${item.name} ÷ SDK v2`, showSpread(ratios[item.name]), '']),
      );
      await Promise.all(open.splice(0).map((item) => item.close()));
      await settle(300);
    }

    if (parts.has('throughput') && !stdioOnly) {
      const tools = Array.from({ length: UPSTREAMS }, (_unused, index) => `e${index}__echo`);
      const direct = await v2({ url: echoHttp.url }, 'default', 'SDK v2 → echo, HTTP, 1 client');
      const many = await sessions(
        `serve --http, ${SESSIONS} sessions → ${UPSTREAMS} upstreams`,
        gateway.url,
        SESSIONS,
        'default',
        tools,
      );
      const manyB = await sessions(
        `serve --http (${control}), ${SESSIONS} sessions`,
        gatewayB.url,
        SESSIONS,
        'default',
        tools,
      );
      const proxyMany = await sessions(`mcp-proxy, ${SESSIONS} sessions`, proxy.url, SESSIONS, 'default', [
        'echo',
      ]);
      const relayMany = await sessions(
        `bare SDK relay, ${SESSIONS} sessions → ${UPSTREAMS} upstreams`,
        relay.url,
        SESSIONS,
        'default',
        tools,
      );
      open.push(many, manyB, proxyMany, relayMany);
      // The process (tree) serving each side: its CPU per call is read around each burst.
      direct.serverPid = echoHttp.pid;
      many.serverPid = gateway.pid;
      manyB.serverPid = gatewayB.pid;
      proxyMany.serverPid = proxy.pid;
      relayMany.serverPid = relay.pid;
      const sides = [direct, many, manyB, proxyMany, relayMany];
      for (const item of sides) await burst(item, Math.min(200, perBurst));
      const rates = Object.fromEntries(sides.map((item) => [item.name, []]));
      const cpu = Object.fromEntries(sides.map((item) => [item.name, { client: [], server: [] }]));
      console.log(
        `\nthroughput: ${rounds} rounds × ${perBurst} calls per side, ${IN_FLIGHT} in flight, interleaved`,
      );
      for (let round = 0; round < rounds; round++)
        for (const item of rotated(sides, round)) {
          const clientBefore = process.cpuUsage();
          const serverBefore = treeCpuUsOf(item.serverPid);
          rates[item.name].push(await burst(item, perBurst));
          const client = process.cpuUsage(clientBefore);
          cpu[item.name].client.push((client.user + client.system) / perBurst);
          cpu[item.name].server.push((treeCpuUsOf(item.serverPid) - serverBefore) / perBurst);
        }
      const per = (over, under) =>
        spread(rates[over.name].map((value, round) => value / rates[under.name][round]));
      // CPU per call of the whole side (the client in this process, the server and its children):
      // on two cores a side's calls/s is bound by it, and it moves far less with the machine's
      // load than calls/s does.
      const cpuOf = (item, round) => cpu[item.name].client[round] + cpu[item.name].server[round];
      const cpuPer = (over, under) =>
        spread(cpu[over.name].client.map((_value, round) => cpuOf(over, round) / cpuOf(under, round)));
      result.throughput = rates;
      result.throughputCpuUsPerCall = cpu;
      result.ratios.throughput = per(many, direct);
      result.ratios.throughputControl = per(manyB, direct);
      result.ratios.throughputAA = per(many, manyB);
      result.ratios.throughputMcpProxy = per(proxyMany, direct);
      result.ratios.throughputRelay = per(relayMany, direct);
      result.ratios.throughputVsRelay = per(many, relayMany);
      result.ratios.throughputCpu = cpuPer(many, direct);
      result.ratios.throughputCpuControl = cpuPer(manyB, direct);
      result.ratios.throughputCpuAA = cpuPer(many, manyB);
      result.ratios.throughputCpuMcpProxy = cpuPer(proxyMany, direct);
      result.ratios.throughputCpuRelay = cpuPer(relayMany, direct);
      result.ratios.throughputCpuVsRelay = cpuPer(many, relayMany);
      const medianUs = (values) => quantile(values, 0.5).toFixed(0);
      printTable(
        `Throughput: calls/s, ${IN_FLIGHT} in flight, and CPU µs per call, median of rounds`,
        ['side', 'calls/s', 'client CPU', 'server CPU (+ children)'],
        sides.map((item) => [
          item.name,
          quantile(rates[item.name], 0.5).toFixed(0),
          medianUs(cpu[item.name].client),
          medianUs(cpu[item.name].server),
        ]),
      );
      rows.push(
        ['gateway calls/s, 50 in flight ÷ direct HTTP', showSpread(result.ratios.throughput), '≥ 1.00×'],
        [`  the same, ${control} gateway`, showSpread(result.ratios.throughputControl), ''],
        [`  gateway ÷ ${control} (control)`, showSpread(result.ratios.throughputAA), '1.00×'],
        ['  mcp-proxy ÷ direct HTTP', showSpread(result.ratios.throughputMcpProxy), ''],
        ['  bare SDK relay ÷ direct HTTP', showSpread(result.ratios.throughputRelay), 'the floor'],
        ['gateway calls/s ÷ bare SDK relay', showSpread(result.ratios.throughputVsRelay), 'reported'],
        [
          'CPU per call at 50 in flight, gateway side ÷ direct HTTP',
          showSpread(result.ratios.throughputCpu),
          '',
        ],
        [`  the same, ${control} gateway`, showSpread(result.ratios.throughputCpuControl), ''],
        [`  gateway ÷ ${control} (control)`, showSpread(result.ratios.throughputCpuAA), '1.00×'],
        ['  mcp-proxy ÷ direct HTTP', showSpread(result.ratios.throughputCpuMcpProxy), ''],
        ['  bare SDK relay ÷ direct HTTP', showSpread(result.ratios.throughputCpuRelay), ''],
        [
          'CPU per call, gateway side ÷ bare SDK relay side',
          showSpread(result.ratios.throughputCpuVsRelay),
          'reported',
        ],
      );
      await Promise.all(open.splice(0).map((item) => item.close()));
    }
    await Promise.all(started.splice(0).map((item) => item.close()));
  }

  if (parts.has('rss')) {
    const mib = (bytes) => bytes / 1024 / 1024;
    const order = ['sdk', 'mcptools', ...(BASE_DIST ? ['base'] : ['sdk′'])];
    const rss = {};
    console.log(`\nRSS: ${rssRepetitions} fresh process(es) per side and size, sides alternating`);
    for (const size of [1, 20]) {
      const samples = Object.fromEntries(order.map((name) => [name, []]));
      for (let repetition = 0; repetition < rssRepetitions; repetition++) {
        for (const name of rotated(order, repetition)) {
          const sideName = name === 'sdk′' ? 'sdk' : name === 'base' ? 'mcptools' : name;
          samples[name].push(rssChild(sideName, size, name === 'base' ? BASE_DIST : undefined));
        }
      }
      rss[size] = samples;
      const median = (name, field) =>
        quantile(
          samples[name].map((sample) => sample[field]),
          0.5,
        );
      printTable(
        `RSS after import + ${size} stdio server(s) connected and listed, full collection (median)`,
        ['side', 'RSS', 'young gen.', 'RSS idle 6 s', 'heap used', 'external', 'connect'],
        order.map((name) => [
          name,
          format.mib(median(name, 'rss')),
          format.mib(
            quantile(
              samples[name].map((sample) => sample.committed.new_space),
              0.5,
            ),
          ),
          format.mib(
            quantile(
              samples[name].map((sample) => sample.settled.rss),
              0.5,
            ),
          ),
          format.mib(median(name, 'heapUsed')),
          format.mib(median(name, 'external')),
          format.ms(median(name, 'connectMs')),
        ]),
      );
      const idle = (name) =>
        quantile(
          samples[name].map((sample) => sample.settled.rss),
          0.5,
        );
      const signed = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)} MiB`;
      const over = mib(median('mcptools', 'rss') - median('sdk', 'rss'));
      const control2 = mib(median(order[2], 'rss') - median('sdk', 'rss'));
      const overIdle = mib(idle('mcptools') - idle('sdk'));
      const controlIdle = mib(idle(order[2]) - idle('sdk'));
      result.ratios[`rss${size}`] = {
        overSdkMiB: over,
        controlOverSdkMiB: control2,
        overSdkIdleMiB: overIdle,
        controlOverSdkIdleMiB: controlIdle,
      };
      rows.push(
        [`RSS, import + ${size} server(s): mcptools − SDK v2`, signed(over), '≤ +5 MiB'],
        [BASE_DIST ? '  the same, base build' : '  SDK′ − SDK (control)', signed(control2), ''],
        ['  the same, after 6 s idle', signed(overIdle), '≤ +5 MiB'],
        [
          BASE_DIST ? '  base build, after 6 s idle' : '  SDK′ − SDK, after 6 s idle (control)',
          signed(controlIdle),
          '',
        ],
      );
    }
    result.rss = rss;
  }

  printTable(
    `The guard — ratios are medians of per-round ratios (range over ${rounds} rounds)`,
    ['figure', 'measured', 'goal'],
    rows,
  );
  console.log(`wrote ${writeResult('guard', result)}`);
} finally {
  await Promise.all(open.map((item) => item.close()));
  await Promise.all(started.map((item) => item.close()));
  rmSync(dir, { recursive: true, force: true });
}
