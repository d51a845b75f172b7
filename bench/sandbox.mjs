// Boxed against unboxed stdio servers (docs/sandbox.md), in one process run. `npm run build`, then:
//
//   node bench/run.mjs sandbox [--rounds=N] [--calls=N] [--no-npx] # start + first tools/list, and a call's p50
//   node bench/run.mjs sandbox cycles [--cycles=N] [--grandchildren=N] [--every=N] [--side=boxed|unboxed|sdk]
//                                     [--snapshots=100,1000 --snapshot-dir=DIR]
//
// Start: `@modelcontextprotocol/server-memory` and `@modelcontextprotocol/server-filesystem`,
// installed outside the box (this repository's node_modules) and run inside it read-only with
// `node` and no network, against the same entry unboxed; and, unless `--no-npx`, the entry a
// user writes (`npx -y <package>@<version>`) boxed, installed once by the package runner and run
// from that folder, and unboxed as npx runs it. The sides alternate, in an order that flips each
// round, and the ratio to the unboxed `node` side is taken per round (its median reported). One
// sample: `loadMcpServers` until the server's tools are in the registry, then `close()`.
// Call: one hub with both sides of one server connected; calls alternate between the sides in
// blocks of 10 (`read_graph`, `list_allowed_directories`), p50 per side.
// Cycles: one server whose process starts a `sh` with N `sleep` grandchildren at start; connect
// (until its tools are listed) and close, N times, unboxed (the control) and then boxed, each
// side in a fresh process of its own (`--side=sdk`: the SDK's client alone, no mcptools); every
// `--every` cycles (100): processes of the server left on the machine (from /proc), the
// process's open descriptors, its RSS, JS heap, external and V8-malloced memory after a full
// GC, and the box cgroups left; heap snapshots at the cycles `--snapshots` names (compare two in
// Chrome DevTools' Memory tab, "Comparison"; a snapshot grows the RSS after it by ~80 MiB).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { loadMcpTools } from './lib/mcptools-side.mjs';
import { format, machineInfo, printTable, warnIfBusy, writeResult } from './lib/report.mjs';
import { quantile } from './lib/stats.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = join(ROOT, 'node_modules');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const value = args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return value === undefined ? fallback : Number(value);
};

const lib = await loadMcpTools();
if (lib.unavailable) {
  console.error(`mcptools is not built: ${lib.unavailable} (run npm run build)`);
  process.exit(1);
}

const median = (values) => quantile(values, 0.5);

/** The version of a published server this repository has installed (npm has the same). */
const installedVersion = (name) =>
  JSON.parse(readFileSync(join(MODULES, name, 'package.json'), 'utf8')).version;

/**
 * The two published servers, each as `{ name, tool, entries }`: `entries[side]` is the entry of
 * one side. `unboxed` and `boxed` run this repository's install with `node` (`boxed`: that
 * `node_modules` read-only); `npx-boxed` is the entry a user writes, `npx -y <package>@<version>`,
 * in a box: the package runner installs it outside the box once (under `XDG_STATE_HOME`, a
 * folder of this run) and runs the installed bin inside, read-only; `npx-unboxed` is the same
 * entry as npx itself runs it, unboxed.
 */
function publishedServers(dir) {
  const memoryFile = join(dir, 'memory.jsonl');
  const servers = [
    {
      name: 'server-memory',
      tool: 'read_graph',
      pkg: '@modelcontextprotocol/server-memory',
      args: [],
      env: { MEMORY_FILE_PATH: memoryFile },
    },
    {
      name: 'server-filesystem',
      tool: 'list_allowed_directories',
      pkg: '@modelcontextprotocol/server-filesystem',
      args: [dir],
      env: undefined,
    },
  ];
  return servers.map((server) => {
    const local = {
      type: 'stdio',
      command: process.execPath,
      args: [join(MODULES, server.pkg, 'dist/index.js'), ...server.args],
      ...(server.env ? { env: server.env } : {}),
    };
    const npx = {
      type: 'stdio',
      command: 'npx',
      args: ['-y', `${server.pkg}@${installedVersion(server.pkg)}`, ...server.args],
      ...(server.env ? { env: server.env } : {}),
      connectTimeoutMs: 300_000,
    };
    return {
      name: server.name,
      tool: server.tool,
      entries: {
        unboxed: { ...local, sandbox: false },
        boxed: { ...local, sandbox: { read: [MODULES], write: [dir] } },
        'npx-boxed': { ...npx, sandbox: { write: [dir] } },
        'npx-unboxed': { ...npx, sandbox: false },
      },
    };
  });
}

/** Starts `entry` alone and waits for its tools; the milliseconds it took. */
async function startOnce(entry) {
  const registry = new lib.ToolRegistry();
  const started = performance.now();
  const hub = await lib.loadMcpServers({ servers: { s: entry } }, registry, { eraCache: false });
  const status = hub.status('s');
  const elapsed = performance.now() - started;
  await hub.close();
  if (status?.state !== 'connected') throw new Error(`not connected: ${JSON.stringify(status?.lastError)}`);
  return elapsed;
}

async function runStartAndCall() {
  const rounds = flag('rounds', 15);
  const calls = flag('calls', 400);
  // `--no-npx`: the two local sides only (no npm, no registry).
  const sides = args.includes('--no-npx')
    ? ['unboxed', 'boxed']
    : ['unboxed', 'boxed', 'npx-boxed', 'npx-unboxed'];
  const dir = mkdtempSync(join(tmpdir(), 'mcptools-bench-sandbox-'));
  // The package runner's installs go to a state folder of this run: the first boxed npx start installs.
  process.env.XDG_STATE_HOME = join(dir, 'state');
  // The servers' folder lies beside the state folder, not above it: a box never mounts the state folder.
  const work = join(dir, 'work');
  mkdirSync(work);
  const servers = publishedServers(work);
  const results = {};
  for (const server of servers) {
    // One warm-up of each side (page cache, the first bwrap, npx's cache); the package runner's
    // first start, which installs, is timed apart.
    const firstInstallMs = sides.includes('npx-boxed')
      ? await startOnce(server.entries['npx-boxed'])
      : undefined;
    for (const side of sides) await startOnce(server.entries[side]);
    const samples = Object.fromEntries(sides.map((side) => [side, []]));
    const ratios = Object.fromEntries(sides.filter((side) => side !== 'unboxed').map((side) => [side, []]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      const times = {};
      for (const side of order) times[side] = await startOnce(server.entries[side]);
      for (const side of sides) samples[side].push(times[side]);
      for (const side of Object.keys(ratios)) ratios[side].push(times[side] / times.unboxed);
    }
    // Calls: the sides that run the same code in one hub (npx-unboxed runs it too, behind npx's
    // own process), alternating in blocks of 10.
    const callSides = sides.filter((side) => side !== 'npx-unboxed');
    const registry = new lib.ToolRegistry();
    const hub = await lib.loadMcpServers(
      {
        servers: Object.fromEntries(callSides.map((side) => [side.replace('-', '_'), server.entries[side]])),
      },
      registry,
      { eraCache: false },
    );
    const callTimes = Object.fromEntries(callSides.map((side) => [side, []]));
    const tools = Object.fromEntries(
      callSides.map((side) => [side, registry.get(`${side.replace('-', '_')}__${server.tool}`)]),
    );
    for (const side of callSides) for (let i = 0; i < 20; i++) await tools[side].execute('w', {});
    for (let block = 0; block < calls / 10; block++) {
      const order = block % 2 === 0 ? callSides : [...callSides].reverse();
      for (const side of order)
        for (let i = 0; i < 10; i++) {
          const started = performance.now();
          const result = await tools[side].execute('c', {});
          callTimes[side].push(performance.now() - started);
          if (result.isError) throw new Error(`${side} call failed`);
        }
    }
    await hub.close();
    results[server.name] = {
      start: {
        ...Object.fromEntries(sides.map((side) => [`${side}MedianMs`, median(samples[side])])),
        medianRatio: Object.fromEntries(Object.entries(ratios).map(([side, list]) => [side, median(list)])),
        quartiles: Object.fromEntries(
          Object.entries(ratios).map(([side, list]) => [side, [quantile(list, 0.25), quantile(list, 0.75)]]),
        ),
        ...(firstInstallMs === undefined ? {} : { npxBoxedFirstStartMs: firstInstallMs }),
        samples,
      },
      call: {
        ...Object.fromEntries(callSides.map((side) => [`${side}P50Ms`, median(callTimes[side])])),
        p50Ratio: Object.fromEntries(
          callSides
            .filter((side) => side !== 'unboxed')
            .map((side) => [side, median(callTimes[side]) / median(callTimes.unboxed)]),
        ),
        calls: callTimes.unboxed.length,
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  printTable(
    `Start + first tools/list against unboxed \`node <bin>\` (median of ${rounds} interleaved rounds; per-round ratio, its median and quartiles)`,
    ['server', 'side', 'start median', 'ratio to unboxed', 'quartiles'],
    Object.entries(results).flatMap(([name, { start }]) =>
      sides.map((side) => [
        name,
        side,
        format.ms(start[`${side}MedianMs`]),
        side === 'unboxed' ? '—' : format.ratio(start.medianRatio[side]),
        side === 'unboxed'
          ? '—'
          : `${format.ratio(start.quartiles[side][0])}–${format.ratio(start.quartiles[side][1])}`,
      ]),
    ),
  );
  for (const [name, { start }] of Object.entries(results))
    if (start.npxBoxedFirstStartMs !== undefined)
      console.log(
        `${name}: first boxed npx start (install outside the box included): ${format.ms(start.npxBoxedFirstStartMs)}`,
      );
  printTable(
    `A call's p50 (${calls} calls per side, alternating in blocks of 10)`,
    ['server', 'side', 'p50', 'ratio to unboxed'],
    Object.entries(results).flatMap(([name, { call }]) =>
      Object.keys(call)
        .filter((key) => key.endsWith('P50Ms'))
        .map((key) => {
          const side = key.slice(0, -'P50Ms'.length);
          return [
            name,
            side,
            format.us(call[key]),
            side === 'unboxed' ? '—' : format.ratio(call.p50Ratio[side]),
          ];
        }),
    ),
  );
  return { rounds, calls, sides, results };
}

/** Host PIDs whose environment carries `marker`, other than this process. */
function processesWith(marker) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

/** The box cgroups this process has left (`mcptools-<pid>-<n>`) under the cgroup file system. */
function leftCgroups() {
  const found = [];
  const walk = (dir, depth) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith(`mcptools-${process.pid}-`)) found.push(join(dir, entry.name));
      else if (depth < 4) walk(join(dir, entry.name), depth + 1);
    }
  };
  walk('/sys/fs/cgroup', 0);
  return found;
}

/** A full collection: `gc` exposed at run time (the benchmark runs without `--expose-gc`). */
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  return () => {
    // Twice: the second pass frees what the first one's finalizers released.
    gc();
    gc();
  };
})();

/** One checkpoint's memory after a full collection: RSS, the JS heap and what V8 mallocs. */
function memoryAfterGc() {
  collectGarbage();
  const usage = process.memoryUsage();
  const heap = getHeapStatistics();
  return {
    rssBytes: usage.rss,
    heapUsedBytes: usage.heapUsed,
    heapTotalBytes: usage.heapTotal,
    externalBytes: usage.external,
    arrayBuffersBytes: usage.arrayBuffers,
    mallocedBytes: heap.malloced_memory,
    nativeContexts: heap.number_of_native_contexts,
    detachedContexts: heap.number_of_detached_contexts,
  };
}

/** Connects `entry` alone through a new hub until its tools are listed: `{ error?, close }`. */
async function connectHubOnce(entry) {
  const registry = new lib.ToolRegistry();
  const hub = await lib.loadMcpServers({ servers: { f: entry } }, registry, { eraCache: false });
  const status = hub.status('f');
  return {
    error: status?.state === 'connected' ? undefined : (status?.lastError?.message ?? 'not connected'),
    close: () => hub.close(),
  };
}

/** The same with the SDK's own client and stdio transport, no mcptools in between. */
async function connectSdkOnce(entry) {
  const client = new Client({ name: 'bench-sandbox-cycles', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: { PATH: process.env.PATH, ...entry.env },
    stderr: 'ignore',
  });
  try {
    await client.connect(transport);
    await client.listTools();
    return { close: () => client.close() };
  } catch (error) {
    return { error: String(error), close: () => client.close().catch(() => {}) };
  }
}

/**
 * One side's cycles in this process: `boxed`, `unboxed` (the control: the same server and hub
 * with `"sandbox": false`) or `sdk` (the SDK's client alone, without mcptools). Every `every` cycles a checkpoint; at the cycles named in
 * `snapshots` a heap snapshot into `snapshotDir`.
 */
async function runCyclesSide(side) {
  const cycles = flag('cycles', 1000);
  const grandchildren = flag('grandchildren', 3);
  const every = flag('every', 100);
  const snapshots = new Set(
    (args.find((arg) => arg.startsWith('--snapshots='))?.slice('--snapshots='.length) ?? '')
      .split(',')
      .filter(Boolean)
      .map(Number),
  );
  const snapshotDir = args.find((arg) => arg.startsWith('--snapshot-dir='))?.slice('--snapshot-dir='.length);
  // A marker only this run's server processes carry in their environment.
  const marker = `mcptools-bench-cycles-${process.pid}`;
  const entry = {
    type: 'stdio',
    command: process.execPath,
    args: [join(ROOT, 'bench/servers/forking-echo-server.mjs'), '--grandchildren', String(grandchildren)],
    // Every process of the server inherits it: found in /proc/<pid>/environ, sleepers included.
    env: { MCPTOOLS_BENCH_MARKER: marker },
    sandbox: side === 'boxed' ? { read: [ROOT] } : false,
  };
  if (side === 'sdk') delete entry.sandbox;
  // Bubblewrap's two processes are in the box's tree as well.
  const expectedRunning = grandchildren + 2 + (side === 'boxed' ? 2 : 0);
  const fds = () => readdirSync('/proc/self/fd').length;
  const checkpoints = [];
  const failures = [];
  const started = performance.now();
  for (let cycle = 0; cycle <= cycles; cycle++) {
    if (cycle % every === 0) {
      const point = {
        cycle,
        left: processesWith(marker).length,
        fds: fds(),
        ...memoryAfterGc(),
        cgroups: leftCgroups().length,
        seconds: (performance.now() - started) / 1000,
        load: loadavg()[0],
      };
      checkpoints.push(point);
      console.log(JSON.stringify({ side, ...(checkpoints.at(-2) ?? point) }));
    }
    if (snapshots.has(cycle) && snapshotDir !== undefined) {
      collectGarbage();
      writeHeapSnapshot(join(snapshotDir, `${side}-${cycle}.heapsnapshot`));
    }
    if (cycle === cycles) break;
    const connection = side === 'sdk' ? await connectSdkOnce(entry) : await connectHubOnce(entry);
    if (connection.error !== undefined) {
      // Counted, not fatal: a failed start must leave nothing behind either.
      failures.push({ cycle, error: connection.error });
      console.log(JSON.stringify(failures.at(-1)));
    }
    // The control of the count: while connected, the server, its sh and the sleepers are seen
    // (the sleepers once the sh has started them).
    if (cycle % every === 0) {
      const until = performance.now() + 5000;
      while (processesWith(marker).length < expectedRunning && performance.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      checkpoints.at(-1).runningWhileConnected = processesWith(marker).length;
    }
    await connection.close();
    // The SDK's transport ends its child only; the sh and the sleepers it leaves are ended here,
    // outside what the SDK side measures (the counts then show what mcptools' sides leave).
    if (side === 'sdk')
      for (const pid of processesWith(marker))
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
  }
  // The kernel and the cgroup removal finish after close() returns: the final count once settled.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const final = { left: processesWith(marker).length, cgroups: leftCgroups().length };
  return { side, cycles, grandchildren, checkpoints, failures, final };
}

/**
 * Both sides, each in a fresh process of its own (one's heap and allocator never carry into
 * the other's figures), the unboxed control first; `--side=boxed|unboxed` runs one alone.
 */
async function runCycles() {
  const only = args.find((arg) => arg.startsWith('--side='))?.slice('--side='.length);
  const sides = only === undefined ? ['unboxed', 'boxed'] : [only];
  const results = [];
  const dir = mkdtempSync(join(tmpdir(), 'mcptools-bench-cycles-'));
  for (const side of sides) {
    const resultFile = join(dir, `${side}.json`);
    const child = spawn(
      process.execPath,
      [
        fileURLToPath(import.meta.url),
        'cycles-side',
        `--side=${side}`,
        `--result=${resultFile}`,
        ...args.slice(1).filter((arg) => !arg.startsWith('--side=')),
      ],
      { stdio: 'inherit' },
    );
    const code = await new Promise((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the ${side} side exited with ${code}`);
    results.push(JSON.parse(readFileSync(resultFile, 'utf8')));
  }
  rmSync(dir, { recursive: true, force: true });
  for (const result of results) {
    const { side, cycles, grandchildren, checkpoints, failures, final } = result;
    printTable(
      `${side}: ${cycles} connect/close cycles of a server with ${grandchildren} grandchildren (memory after a full GC)`,
      [
        'cycle',
        'left',
        'running',
        'fds',
        'RSS',
        'heap used',
        'heap total',
        'external',
        'malloced',
        'cgroups left',
        's',
        'load',
      ],
      checkpoints.map((point) => [
        point.cycle,
        point.left,
        point.runningWhileConnected ?? '—',
        point.fds,
        format.mib(point.rssBytes),
        format.mib(point.heapUsedBytes),
        format.mib(point.heapTotalBytes),
        format.mib(point.externalBytes),
        format.mib(point.mallocedBytes),
        point.cgroups,
        point.seconds.toFixed(0),
        point.load.toFixed(2),
      ]),
    );
    console.log(
      `${side}, after the last close: ${final.left} processes left, ${final.cgroups} cgroups left; ${failures.length} connects failed`,
    );
  }
  return { sides: results };
}

if (args[0] === 'cycles-side') {
  // One side, in the process runCycles started: its result into the file it names.
  const side = args.find((arg) => arg.startsWith('--side=')).slice('--side='.length);
  const resultFile = args.find((arg) => arg.startsWith('--result=')).slice('--result='.length);
  writeFileSync(resultFile, JSON.stringify(await runCyclesSide(side)));
  process.exit(0);
}
warnIfBusy();
console.log(
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} on ${cpus().length} CPUs`,
);
if (args[0] === 'cycles') {
  const result = await runCycles();
  console.log(`wrote ${writeResult('sandbox-cycles', { machineAtEnd: machineInfo(), ...result })}`);
} else {
  const result = await runStartAndCall();
  console.log(`wrote ${writeResult('sandbox', { machineAtEnd: machineInfo(), ...result })}`);
}
