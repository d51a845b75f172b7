// The profile of one gateway call: where each microsecond of the gateway's CPU goes, per layer
// (package, or folder of mcptools' dist/), against the two direct hops the gateway replaces.
//
//   node bench/run.mjs profile-call [--calls=N] [--variants=a,b] [--top=N] [--dist=DIR] [--keep=DIR]
//
// A library gateway of the build (bench/lib/profile-gateway.mjs, its own process) over the bench
// echo server: per variant, 300 warm-up calls from an SDK v2 client over HTTP, then `--calls`
// sequential calls (default 2000) with the gateway's CPU profiler on (50 µs sampling). Variants:
// `2025` (client default mode, session, event store on), `2025-nostore` (`eventStore: false`),
// `2025-telemetry` (traces at 100 % to a local OTLP receiver, metrics), `2025-policies` (the
// example of docs/tool-policies.md), `2026` (client `auto`, upstream 2026-07-28),
// `2026-telemetry`, `2026-policies`. Beside them, the references measured the same way: the CPU
// per call of the echo server answering over HTTP (its process, from /proc) and of the SDK v2
// client calling it over stdio (this process): what the gateway's two halves would cost alone.
// Also the bytes the gateway allocates per call, by layer (sampling heap profiler, every 128
// bytes, collected objects included): unlike time, a count the machine's load does not move.
// The CPU profile's sample intervals are wall time: on a busy machine a function the thread was
// preempted in is charged for the wait, so its shares are only good on a quiet machine.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { allocationLayers, profileLayers } from './lib/cpu-profile-layers.mjs';
import { cpuUsOf } from './lib/proc-cpu.mjs';
import { printTable, warnIfBusy } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand, startHttpEcho } from './lib/servers.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) =>
  args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const calls = Number(flag('calls', 2000));
const top = Number(flag('top', 25));
const dist = resolve(flag('dist', fileURLToPath(new URL('../dist', import.meta.url))));
const VARIANTS = {
  2025: { mode: 'default', tool: 'e0__echo', args: [] },
  '2025-nostore': { mode: 'default', tool: 'e0__echo', args: ['--store=off'] },
  '2025-telemetry': { mode: 'default', tool: 'e0__echo', args: ['--telemetry=on'] },
  '2025-policies': { mode: 'default', tool: 'e0__echo', args: ['--policies'] },
  2026: { mode: 'auto', tool: 'm0__echo', args: [] },
  '2026-telemetry': { mode: 'auto', tool: 'm0__echo', args: ['--telemetry=on'] },
  '2026-policies': { mode: 'auto', tool: 'm0__echo', args: ['--policies'] },
};
const names = flag('variants', Object.keys(VARIANTS).join(',')).split(',');
const keep = flag('keep', undefined);
const dir = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), 'mcptools-profile-'));
mkdirSync(dir, { recursive: true });

/** A local OTLP/HTTP receiver that accepts and drops everything. */
async function startReceiver() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

async function sequential(client, tool, count) {
  for (let index = 0; index < count; index++) {
    const result = await client.callTool({ name: tool, arguments: { text: 'hello' } });
    if (result.isError || result.content?.[0]?.text !== 'hello') throw new Error(JSON.stringify(result));
  }
}

async function profileVariant(name, receiver) {
  const variant = VARIANTS[name];
  const script = fileURLToPath(new URL('./lib/profile-gateway.mjs', import.meta.url));
  const child = spawn(
    process.execPath,
    [script, `--dist=${dist}`, `--otlp=${receiver.url}`, ...variant.args],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => (await lines.next()).value ?? '';
  const url = (await next()).replace(/^ready /, '');
  const { client, era } = await connectSdk({ url, mode: variant.mode });
  try {
    await sequential(client, variant.tool, 300);
    child.stdin.write('start\n');
    await next();
    const wall = performance.now();
    await sequential(client, variant.tool, calls);
    const wallUs = ((performance.now() - wall) * 1000) / calls;
    const file = join(dir, `gateway-${name}.cpuprofile`);
    child.stdin.write(`stop ${file}\n`);
    const cpuUs = Number((await next()).replace(/^cpu /, '')) / calls;
    const allocations = allocationLayers(
      JSON.parse(readFileSync(file.replace(/\.cpuprofile$/, '.heapprofile'), 'utf8')),
    );
    return {
      name,
      era,
      wallUs,
      cpuUs,
      allocations,
      ...profileLayers(JSON.parse(readFileSync(file, 'utf8'))),
    };
  } finally {
    await client.close().catch(() => {});
    child.stdin.end();
    await new Promise((done) => child.once('exit', done));
  }
}

/** CPU per call of the two direct hops: the echo server over HTTP (its process), the SDK client over stdio. */
async function references() {
  const echo = await startHttpEcho();
  const rows = {};
  try {
    for (const mode of ['default', 'auto']) {
      const http = await connectSdk({ url: echo.url, mode });
      await sequential(http.client, 'echo', 300);
      let before = cpuUsOf(echo.pid);
      await sequential(http.client, 'echo', calls);
      const server = (cpuUsOf(echo.pid) - before) / calls;
      await http.client.close();
      const stdio = await connectSdk({ stdio: echoStdioCommand(), mode });
      await sequential(stdio.client, 'echo', 300);
      before = process.cpuUsage();
      const wall = performance.now();
      await sequential(stdio.client, 'echo', calls);
      const used = process.cpuUsage(before);
      const wallUs = ((performance.now() - wall) * 1000) / calls;
      await stdio.client.close();
      rows[mode] = {
        httpServerUs: server,
        stdioClientUs: (used.user + used.system) / calls,
        stdioWallUs: wallUs,
        era: http.era,
      };
    }
  } finally {
    await echo.close();
  }
  return rows;
}

warnIfBusy();
const receiver = await startReceiver();
const results = [];
try {
  for (const name of names) {
    results.push(await profileVariant(name, receiver));
    console.log(`${name}: ${results.at(-1).cpuUs.toFixed(0)} µs of gateway CPU per call`);
  }
  const refs = await references();
  const layerNames = [...new Set(results.flatMap((result) => [...result.layers.keys()]))];
  const perCall = (result, layer) => ((result.layers.get(layer) ?? 0) / calls).toFixed(1);
  const shown = layerNames.filter((layer) =>
    results.some((result) => (result.layers.get(layer) ?? 0) / calls >= 1),
  );
  printTable(
    `Gateway CPU per call by layer (self time, µs; ${calls} sequential calls per variant)`,
    ['layer', ...results.map((result) => result.name)],
    [
      ...shown.map((layer) => [layer, ...results.map((result) => perCall(result, layer))]),
      [
        '(other layers < 1 µs)',
        ...results.map((result) =>
          (
            [...result.layers]
              .filter(([layer]) => !shown.includes(layer))
              .reduce((sum, [, us]) => sum + us, 0) / calls
          ).toFixed(1),
        ),
      ],
      ['profiled total', ...results.map((result) => (result.totalUs / calls).toFixed(1))],
      ['process CPU', ...results.map((result) => result.cpuUs.toFixed(1))],
      ['client wall per call', ...results.map((result) => result.wallUs.toFixed(0))],
    ],
  );
  printTable(
    'The two direct hops, CPU per call (µs): what the gateway would cost as a bare HTTP server plus a bare SDK stdio client',
    ['era', 'echo server over HTTP', 'SDK v2 client over stdio', 'sum', 'direct stdio wall'],
    Object.values(refs).map((row) => [
      row.era,
      row.httpServerUs.toFixed(0),
      row.stdioClientUs.toFixed(0),
      (row.httpServerUs + row.stdioClientUs).toFixed(0),
      row.stdioWallUs.toFixed(0),
    ]),
  );
  const allocationNames = [
    ...new Set(results.flatMap((result) => [...result.allocations.layers.keys()])),
  ].filter((layer) => results.some((result) => (result.allocations.layers.get(layer) ?? 0) / calls >= 64));
  const kib = (bytes) => (bytes / calls / 1024).toFixed(2);
  printTable(
    'Gateway allocations per call by layer (KiB, sampled every 128 bytes; the load does not move these)',
    ['layer', ...results.map((result) => result.name)],
    [
      ...allocationNames.map((layer) => [
        layer,
        ...results.map((result) => kib(result.allocations.layers.get(layer) ?? 0)),
      ]),
      ['total', ...results.map((result) => kib(result.allocations.totalBytes))],
    ],
  );
  for (const result of results) {
    printTable(
      `Top ${top} functions by bytes allocated, ${result.name} (bytes per call)`,
      ['function', 'bytes'],
      [...result.allocations.functions].slice(0, top).map(([fn, bytes]) => [fn, (bytes / calls).toFixed(0)]),
    );
    printTable(
      `Top ${top} functions by self time, ${result.name} (µs per call)`,
      ['function', 'µs'],
      [...result.functions].slice(0, top).map(([fn, us]) => [fn, (us / calls).toFixed(2)]),
    );
  }
  console.log(keep ? `profiles kept in ${dir}` : '');
} finally {
  receiver.close();
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
