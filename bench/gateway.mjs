// The gateway benchmark: an SDK client → `mcptools serve` (the built CLI, its own
// process) → the bench echo server over stdio, against the same SDK client talking to the echo
// server directly (HTTP and stdio) and through `mcp-proxy` (HTTP → stdio, installed in
// bench/peers on demand, never a project dependency). All sides are measured in the same run,
// in interleaved rounds whose order rotates, so machine noise lands on every side.
//
//   node bench/run.mjs gateway [--quick]
//
// Latency: sequential `echo` calls, each timed alone; p50/p95 per side.
// Throughput: calls per second with 50 calls in flight — through the gateway from 10
// downstream sessions across 5 upstreams; SDK-direct from one client to one server; through
// mcp-proxy from 10 sessions to its one server. Then `serve --stdio` (one session, 50 in
// flight across 5 upstreams) against the SDK client over stdio directly.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { format, printTable, writeResult } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { ECHO_SERVER, echoStdioCommand, settle, startHttpEcho } from './lib/servers.mjs';
import { ratio, summarize } from './lib/stats.mjs';

// MCPTOOLS_CLI points at another build (to compare two versions).
const CLI = process.env.MCPTOOLS_CLI ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const PEERS = fileURLToPath(new URL('./peers/', import.meta.url));
const MCP_PROXY = join(PEERS, 'node_modules', 'mcp-proxy', 'dist', 'bin', 'mcp-proxy.mjs');
const UPSTREAMS = 5;
const SESSIONS = 10;
const IN_FLIGHT = 50;
const MODE = 'auto';

/** Installs bench/peers (where mcp-proxy lives) once, when mcp-proxy is missing. */
export function ensureMcpProxy() {
  if (existsSync(MCP_PROXY)) return;
  console.log('installing the benchmark peers into bench/peers (npm install, once)…');
  execFileSync('npm', ['install', '--prefix', PEERS, '--no-audit', '--no-fund', '--legacy-peer-deps'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Spawns a long-running child; `ready(stderrSoFar)` returns its URL once it is listening. */
function startChild(command, args, ready, timeoutMs = 60_000, env = process.env) {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stderr = '';
  const close = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void close();
      reject(new Error(`${args.join(' ')} did not start within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    const check = async () => {
      const url = await ready(stderr);
      if (url) {
        clearTimeout(timer);
        resolve({ url, pid: child.pid, close });
      } else if (child.exitCode === null) setTimeout(check, 100);
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${stderr}`));
    });
    void check();
  });
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `mcptools serve --http` of the built CLI `cli` (default: this tree's) in a process of its own. */
export async function startGatewayHttp(configPath, cli = CLI, env = process.env) {
  return startChild(
    process.execPath,
    [cli, 'serve', '--http', '127.0.0.1:0', '--config', configPath],
    (stderr) => /listening on (http:\/\/\S+)/.exec(stderr)?.[1],
    60_000,
    env,
  );
}

/** mcp-proxy (HTTP → the echo server over stdio) in a process of its own. */
export async function startMcpProxy() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  return startChild(
    process.execPath,
    [
      MCP_PROXY,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--server',
      'stream',
      '--',
      process.execPath,
      ECHO_SERVER,
    ],
    async () => {
      try {
        await fetch(url, { method: 'GET' });
        return url;
      } catch {
        return undefined;
      }
    },
  );
}

/** An SDK client of `mcptools serve --stdio --config configPath`. */
async function connectGatewayStdio(configPath) {
  const client = new Client(
    { name: 'bench-gateway-stdio', version: '1.0.0' },
    { versionNegotiation: { mode: MODE } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--config', configPath],
      // A stdio client passes on only its safe list of variables: the box setting is given.
      env: { MCPTOOLS_SERVE_SANDBOX: process.env.MCPTOOLS_SERVE_SANDBOX ?? 'off' },
      stderr: 'ignore',
    }),
  );
  return { client, era: client.getProtocolEra() };
}

/** A side: clients and the tool names its calls rotate over. */
function side(name, connections, tools) {
  let next = 0;
  return {
    name,
    eras: [...new Set(connections.map((connection) => connection.era))],
    clients: connections.map((connection) => connection.client),
    call(worker = next++) {
      const client = this.clients[worker % this.clients.length];
      const tool = tools[worker % tools.length];
      return client.callTool({ name: tool, arguments: { text: 'hello' } });
    },
    async check() {
      const result = await this.call(0);
      if (result.isError || result.content?.[0]?.text !== 'hello')
        throw new Error(`${name}: not an echo: ${JSON.stringify(result).slice(0, 200)}`);
      for (const client of this.clients) await client.listTools();
    },
    close: () => Promise.all(connections.map((connection) => connection.client.close().catch(() => {}))),
  };
}

/** Rounds of sequential calls, sides interleaved in rotating order; p50/p95 per side. */
async function latency(sides, { rounds, perRound, warmup }) {
  for (const item of sides) for (let index = 0; index < warmup; index++) await item.call(0);
  const samples = Object.fromEntries(sides.map((item) => [item.name, []]));
  for (let round = 0; round < rounds; round++) {
    const shift = round % sides.length;
    for (const item of [...sides.slice(shift), ...sides.slice(0, shift)]) {
      for (let index = 0; index < perRound; index++) {
        const start = performance.now();
        await item.call(0);
        samples[item.name].push(performance.now() - start);
      }
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)]));
}

/** Calls per second with `inFlight` calls outstanding, `total` calls in all. */
async function burst(item, inFlight, total) {
  let started = 0;
  let failed = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async (_unused, worker) => {
      while (started < total) {
        started++;
        const result = await item.call(worker).catch(() => ({ isError: true }));
        if (result.isError) failed++;
      }
    }),
  );
  return { callsPerSecond: (total / (performance.now() - begin)) * 1000, failed };
}

/** Rounds of bursts, sides interleaved in rotating order; median calls/s per side. */
async function throughput(sides, { rounds, perBurst }) {
  for (const item of sides) await burst(item, IN_FLIGHT, Math.min(200, perBurst));
  const rates = Object.fromEntries(sides.map((item) => [item.name, []]));
  const failures = Object.fromEntries(sides.map((item) => [item.name, 0]));
  for (let round = 0; round < rounds; round++) {
    const shift = round % sides.length;
    for (const item of [...sides.slice(shift), ...sides.slice(0, shift)]) {
      const { callsPerSecond, failed } = await burst(item, IN_FLIGHT, perBurst);
      rates[item.name].push(callsPerSecond);
      failures[item.name] += failed;
    }
  }
  return Object.fromEntries(
    sides.map((item) => [item.name, { ...summarize(rates[item.name]), failed: failures[item.name] }]),
  );
}

function writeGatewayConfig(dir) {
  const path = join(dir, 'mcptools.json');
  const servers = Object.fromEntries(
    Array.from({ length: UPSTREAMS }, (_unused, index) => [`e${index}`, echoStdioCommand()]),
  );
  writeFileSync(path, JSON.stringify({ servers }));
  return path;
}

/** Runs the gateway benchmark. Returns the result object. */
export async function runGatewayBenchmark(options = {}) {
  const rounds = options.rounds ?? 8;
  const perRound = options.perRound ?? 100;
  const warmup = options.warmup ?? 200;
  const perBurst = options.perBurst ?? 500;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  ensureMcpProxy();
  const dir = mkdtempSync(join(tmpdir(), 'mcptools-bench-gateway-'));
  const config = writeGatewayConfig(dir);
  const started = [];
  const sides = [];
  try {
    const echoHttp = await startHttpEcho();
    started.push(echoHttp);
    const gatewayHttp = await startGatewayHttp(config);
    started.push(gatewayHttp);
    const proxy = await startMcpProxy();
    started.push(proxy);
    const tools = Array.from({ length: UPSTREAMS }, (_unused, index) => `e${index}__echo`);
    const connectMany = (target, count) =>
      Promise.all(Array.from({ length: count }, () => connectSdk({ ...target, mode: MODE })));

    const httpDirect = side('SDK → echo (HTTP)', await connectMany({ url: echoHttp.url }, 1), ['echo']);
    const stdioDirect = side('SDK → echo (stdio)', await connectMany({ stdio: echoStdioCommand() }, 1), [
      'echo',
    ]);
    const gatewayLatency = side(
      'SDK → serve --http → echo (stdio)',
      await connectMany({ url: gatewayHttp.url }, 1),
      ['e0__echo'],
    );
    const proxyLatency = side('SDK → mcp-proxy → echo (stdio)', await connectMany({ url: proxy.url }, 1), [
      'echo',
    ]);
    const gatewayStdio = side(
      'SDK → serve --stdio → echo (stdio)',
      [await connectGatewayStdio(config)],
      tools,
    );
    const stdioLatencySide = {
      ...gatewayStdio,
      call: () => gatewayStdio.clients[0].callTool({ name: 'e0__echo', arguments: { text: 'hello' } }),
    };
    sides.push(httpDirect, stdioDirect, gatewayLatency, proxyLatency, gatewayStdio);
    for (const item of sides) await item.check();

    console.log(`\ngateway latency: ${rounds} rounds × ${perRound} sequential calls per side, interleaved`);
    const lat = await latency([httpDirect, stdioDirect, gatewayLatency, proxyLatency, stdioLatencySide], {
      rounds,
      perRound,
      warmup,
    });
    const direct = lat[httpDirect.name].p50 + lat[stdioDirect.name].p50;
    const latencyRows = Object.entries(lat).map(([name, summary]) => [
      name,
      format.us(summary.p50),
      format.us(summary.p95),
      summary.n,
    ]);
    printTable('Gateway latency (p50/p95 per call)', ['side', 'p50', 'p95', 'calls'], latencyRows);
    const latencyRatios = {
      gatewayVsDirectSum: ratio(lat[gatewayLatency.name].p50, direct),
      gatewayVsMcpProxy: ratio(lat[gatewayLatency.name].p50, lat[proxyLatency.name].p50),
      stdioGatewayVsTwoStdioHops: ratio(lat[stdioLatencySide.name].p50, 2 * lat[stdioDirect.name].p50),
      stdioGatewayVsStdioDirect: ratio(lat[stdioLatencySide.name].p50, lat[stdioDirect.name].p50),
    };
    console.log(
      `serve --http p50 / (direct HTTP p50 + direct stdio p50) = ${format.ratio(latencyRatios.gatewayVsDirectSum)} (goal ≤ 1.10×); / mcp-proxy p50 = ${format.ratio(latencyRatios.gatewayVsMcpProxy)} (goal ≤ 0.60×)`,
    );
    console.log(
      `serve --stdio p50 / (2 × direct stdio p50) = ${format.ratio(latencyRatios.stdioGatewayVsTwoStdioHops)}; / direct stdio p50 = ${format.ratio(latencyRatios.stdioGatewayVsStdioDirect)}`,
    );
    await settle();

    // Throughput: the gateway and mcp-proxy get 10 sessions; the references one client.
    const gatewayMany = side(
      `serve --http: ${SESSIONS} sessions → ${UPSTREAMS} upstreams`,
      await connectMany({ url: gatewayHttp.url }, SESSIONS),
      tools,
    );
    const proxyMany = side(
      `mcp-proxy: ${SESSIONS} sessions → 1 upstream`,
      await connectMany({ url: proxy.url }, SESSIONS),
      ['echo'],
    );
    const httpOne = { ...httpDirect, name: 'SDK → echo (HTTP), 1 client' };
    const stdioOne = { ...stdioDirect, name: 'SDK → echo (stdio), 1 client' };
    const gatewayStdioMany = { ...gatewayStdio, name: `serve --stdio: 1 session → ${UPSTREAMS} upstreams` };
    sides.push(gatewayMany, proxyMany);
    await gatewayMany.check();
    await proxyMany.check();
    console.log(
      `\ngateway throughput: ${rounds} rounds × ${perBurst} calls per side, ${IN_FLIGHT} in flight, interleaved`,
    );
    const tput = await throughput([httpOne, gatewayMany, proxyMany, stdioOne, gatewayStdioMany], {
      rounds,
      perBurst,
    });
    printTable(
      `Gateway throughput (calls/s, ${IN_FLIGHT} in flight; median of ${rounds} bursts)`,
      ['side', 'median', 'min', 'max', 'failed'],
      Object.entries(tput).map(([name, summary]) => [
        name,
        summary.p50.toFixed(0),
        summary.min.toFixed(0),
        summary.max.toFixed(0),
        summary.failed,
      ]),
    );
    const throughputRatios = {
      gatewayVsHttpDirect: ratio(tput[gatewayMany.name].p50, tput[httpOne.name].p50),
      gatewayVsMcpProxy: ratio(tput[gatewayMany.name].p50, tput[proxyMany.name].p50),
      mcpProxyVsHttpDirect: ratio(tput[proxyMany.name].p50, tput[httpOne.name].p50),
      stdioGatewayVsStdioDirect: ratio(tput[gatewayStdioMany.name].p50, tput[stdioOne.name].p50),
    };
    console.log(
      `serve --http / SDK-direct HTTP = ${format.ratio(throughputRatios.gatewayVsHttpDirect)} (goal ≥ 1.0×); / mcp-proxy = ${format.ratio(throughputRatios.gatewayVsMcpProxy)} (goal ≥ 1.5×); mcp-proxy / SDK-direct HTTP = ${format.ratio(throughputRatios.mcpProxyVsHttpDirect)}`,
    );
    console.log(
      `serve --stdio / SDK-direct stdio = ${format.ratio(throughputRatios.stdioGatewayVsStdioDirect)} (goal ≥ 1.0×)`,
    );
    const eras = Object.fromEntries(sides.map((item) => [item.name, item.eras]));
    const file = writeResult('gateway', {
      goals: {
        latency: 'serve --http p50 ≤ 1.10× (direct HTTP p50 + direct stdio p50) and ≤ 0.60× mcp-proxy p50',
        throughput:
          'serve --http ≥ 1.0× SDK-direct HTTP and ≥ 1.5× mcp-proxy; serve --stdio ≥ 1.0× SDK-direct stdio',
      },
      clientMode: MODE,
      eras,
      rounds,
      perRound,
      warmup,
      perBurst,
      inFlight: IN_FLIGHT,
      sessions: SESSIONS,
      upstreams: UPSTREAMS,
      unit: { latency: 'ms', throughput: 'calls/s' },
      latency: lat,
      latencyRatios,
      throughput: tput,
      throughputRatios,
    });
    console.log(`wrote ${file}`);
    return { latency: lat, latencyRatios, throughput: tput, throughputRatios };
  } finally {
    await Promise.all(sides.map((item) => item.close()));
    await Promise.all(started.map((item) => item.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}
