// Memory: (1) client-side RSS added per connected stdio server, mcptools hub vs SDK-direct
// clients — the server processes are children and never counted; (2) RSS cost of importing the
// library, over a bare Node baseline. Every measurement runs in a fresh child process
// (bench/memory-child.mjs); repetitions alternate the sides and the median is reported.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadMcpTools } from './lib/mcptools-side.mjs';
import { format, printTable, writeResult } from './lib/report.mjs';
import { ratio, summarize } from './lib/stats.mjs';

const CHILD = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));
const TRACE = new URL('./lib/module-trace.mjs', import.meta.url).href;
/** Goal for the first connect: mcptools' RSS within this of the SDK client's. */
const FIRST_CONNECT_GOAL_BYTES = 5 * 1024 * 1024;
/** Goal for importing mcptools; above it the benchmark says which modules weigh most. */
const IMPORT_GOAL_BYTES = 26 * 1024 * 1024;
// Per-server children: a fixed 1 MiB young generation keeps V8 from resizing it between the
// two snapshots. Import children run with default heap settings, as users do.
const SERVER_CHILD_FLAGS = ['--expose-gc', '--min-semi-space-size=1', '--max-semi-space-size=1'];
// With `jit: false`, per-server children run V8's interpreter alone: the code it compiles, and its
// deoptimization data and relocation info (in the old space, not only the code space), land in
// whichever window the JIT happens to run in, and are paid once per process, not per server.
const NO_JIT_FLAGS = ['--no-opt', '--no-maglev', '--no-sparkplug'];

/**
 * Runs the memory benchmark; `options.repetitions`, `servers` (N per child), `mode` and
 * `calls` (the heap-growth run) size it; `parts` picks among `import`, `servers`, `calls`;
 * `jit: false` runs the per-server children without V8's compilers.
 */
export async function runMemoryBenchmark(options = {}) {
  const parts = new Set(options.parts ?? ['import', 'first-connect', 'servers', 'calls']);
  const repetitions = options.repetitions ?? 3;
  const servers = options.servers ?? 20;
  const mode = options.mode ?? 'default';
  const jit = options.jit ?? true;
  const serverChildFlags = jit ? SERVER_CHILD_FLAGS : [...SERVER_CHILD_FLAGS, ...NO_JIT_FLAGS];
  const lib = await loadMcpTools();
  if (lib.unavailable) console.log(`mcptools side skipped: ${lib.unavailable}`);
  const withMcpTools = !lib.unavailable;

  const importSides = parts.has('import')
    ? ['bare', 'sdk', 'sdk-stdio', ...(withMcpTools ? ['mcptools', 'mcptools-hub'] : [])]
    : [];
  const imports = Object.fromEntries(importSides.map((side) => [side, []]));
  for (let repetition = 0; repetition < repetitions + 2; repetition++) {
    const order = repetition % 2 === 0 ? importSides : [...importSides].reverse();
    for (const side of order) imports[side].push(await child(['import', side]));
  }
  const bareRss = parts.has('import') ? summarize(imports.bare.map((sample) => sample.after)).p50 : 0;
  const importRows = importSides
    .filter((side) => side !== 'bare')
    .map((side) => {
      const rss = summarize(imports[side].map((sample) => sample.after));
      const afterGc = summarize(imports[side].map((sample) => sample.afterGc));
      const importMs = summarize(imports[side].map((sample) => sample.importMs)).p50;
      const error = imports[side].find((sample) => sample.error)?.error ?? null;
      return {
        side,
        error,
        rssP50: rss.p50,
        cost: rss.p50 - bareRss,
        costAfterGc: afterGc.p50 - bareRss,
        importMs,
        samples: rss.n,
      };
    });

  const serverSides = ['sdk', ...(withMcpTools ? ['mcptools'] : [])];
  const perServer = Object.fromEntries(serverSides.map((side) => [side, []]));
  for (let repetition = 0; parts.has('servers') && repetition < repetitions; repetition++) {
    const order = repetition % 2 === 0 ? serverSides : [...serverSides].reverse();
    // Six rounds of connects (N, N, 2N, 2N, N, 2N servers): minutes on a busy machine.
    for (const side of order)
      perServer[side].push(await child(['servers', side, String(servers), mode], serverChildFlags, 900_000));
  }
  const serverRows = (parts.has('servers') ? serverSides : []).map((side) => ({
    side,
    rss: summarize(perServer[side].map((sample) => delta(sample, (point) => point.rss))),
    live: summarize(perServer[side].map((sample) => delta(sample, liveResident))),
    heap: summarize(perServer[side].map((sample) => delta(sample, heapAndExternal))),
    // Of the figure above, what went to V8's code space (JIT code: compiled once per process).
    code: summarize(perServer[side].map((sample) => delta(sample, codeSpace))),
    marginal: summarize(perServer[side].map((sample) => marginal(sample, heapAndExternal))),
    // Of the marginal, what went to V8's code space: JIT code that one window compiled and the
    // other did not (its deoptimization data and relocation info are in the old space, not here).
    marginalCode: summarize(perServer[side].map((sample) => marginal(sample, codeSpace))),
  }));
  const sdkPerServer = serverRows[0]?.heap.p50;
  const sdkMarginal = serverRows[0]?.marginal.p50;

  // Growth over many calls: one child per side, heap after a full collection at each quarter.
  const calls = options.calls ?? 100_000;
  const growth = [];
  for (const side of parts.has('calls') ? serverSides : []) {
    const sample = await child(['calls', side, String(calls)], ['--expose-gc'], 900_000);
    const first = sample.points[0].heap;
    growth.push({ side, points: sample.points, growth: sample.points.at(-1).heap - first });
  }
  const sdkImport = importRows.find((row) => row.side === 'sdk')?.cost;

  // First connect: import, one stdio server connected and its tools listed, full
  // collection; both sides in fresh processes, alternated, median.
  const firstSides = parts.has('first-connect') ? ['sdk', ...(withMcpTools ? ['mcptools'] : [])] : [];
  const first = Object.fromEntries(firstSides.map((side) => [side, []]));
  for (let repetition = 0; repetition < repetitions + 2; repetition++) {
    const order = repetition % 2 === 0 ? firstSides : [...firstSides].reverse();
    for (const side of order) first[side].push(await child(['first-connect', side]));
  }
  const firstRows = firstSides.map((side) => ({
    side,
    rss: summarize(first[side].map((sample) => sample.rss)),
    heapUsed: summarize(first[side].map((sample) => sample.heapUsed)).p50,
    external: summarize(first[side].map((sample) => sample.external)).p50,
  }));
  // Which modules each side loads: one more child per side with the module trace preloaded.
  const firstModules = {};
  for (const side of firstSides) {
    const { modules } = await child(['first-connect', side], ['--expose-gc', '--import', TRACE]);
    firstModules[side] = groupModules(modules);
  }

  if (parts.has('import'))
    printTable(
      `Import cost: RSS of a fresh process after import, minus bare Node (${format.mib(bareRss)}), median of ${repetitions + 2}`,
      ['import', 'RSS', 'cost', 'cost after gc', 'ratio to SDK client', 'import time'],
      importRows.map((row) => [
        row.error ? `${labelOf(row.side)} (FAILED: ${row.error.slice(0, 80)})` : labelOf(row.side),
        format.mib(row.rssP50),
        format.mib(row.cost),
        format.mib(row.costAfterGc),
        format.ratio(ratio(row.cost, sdkImport)),
        format.ms(row.importMs),
      ]),
    );
  const mcptoolsImport = importRows.find((row) => row.side === 'mcptools');
  const overGoal = mcptoolsImport !== undefined && mcptoolsImport.cost > IMPORT_GOAL_BYTES;
  const modules = overGoal && !mcptoolsImport.error ? await attributeImport() : [];
  if (modules.length > 0) {
    printTable(
      'What dist/index.js adds to the hub: each re-exported module imported after the hub modules, in a fresh process',
      ['module', 'RSS cost', 'import time'],
      modules.slice(0, 8).map((row) => [row.module, format.mib(row.cost), format.ms(row.importMs)]),
    );
  }
  if (parts.has('first-connect')) {
    const sdkRss = firstRows[0].rss.p50;
    printTable(
      `First connect: RSS after import + one stdio server connected and its tools listed, full collection, median of ${repetitions + 2} fresh processes (goal: mcptools within ${format.mib(FIRST_CONNECT_GOAL_BYTES)} of the SDK client)`,
      ['side', 'RSS', 'min..max', 'over the SDK client', 'heap used', 'external', 'modules loaded'],
      firstRows.map((row) => [
        row.side === 'sdk' ? 'SDK client + stdio' : 'mcptools (dist/index.js)',
        format.mib(row.rss.p50),
        `${format.mib(row.rss.min)}..${format.mib(row.rss.max)}`,
        format.mib(row.rss.p50 - sdkRss),
        format.mib(row.heapUsed),
        format.mib(row.external),
        String(firstModules[row.side].total),
      ]),
    );
    for (const side of firstSides)
      console.log(
        `${side} modules: ${firstModules[side].groups.map(([group, count]) => `${group} ${count}`).join(', ')}`,
      );
  }
  if (parts.has('servers'))
    printTable(
      `Per-server client memory (JS heap + external), stdio servers in a fresh process (mode ${mode}${jit ? '' : ', no JIT'}), median of ${repetitions}`,
      [
        'side',
        `marginal (${2 * servers} − ${servers}) / ${servers}`,
        'min..max',
        'of it code space',
        'ratio',
        `${servers} after 1 warm-up (old)`,
        'min..max',
        'of it code space',
        'ratio (old)',
        'RSS / server (old)',
      ],
      serverRows.map((row) => [
        row.side === 'sdk' ? 'SDK-direct' : 'mcptools',
        kib(row.marginal.p50),
        `${kib(row.marginal.min)}..${kib(row.marginal.max)}`,
        `${Math.round(row.marginalCode.p50)} B`,
        format.ratio(ratio(row.marginal.p50, sdkMarginal)),
        kib(row.heap.p50),
        `${kib(row.heap.min)}..${kib(row.heap.max)}`,
        kib(row.code.p50),
        format.ratio(ratio(row.heap.p50, sdkPerServer)),
        format.kib(row.rss.p50),
      ]),
    );
  if (parts.has('calls'))
    printTable(
      `Heap growth over ${calls.toLocaleString('en')} calls (50 in flight) on one stdio connection, JS heap + external after a full GC`,
      ['side', ...growth[0].points.map((point) => `after ${point.calls.toLocaleString('en')}`), 'growth'],
      growth.map((row) => [
        row.side === 'sdk' ? 'SDK-direct' : 'mcptools',
        ...row.points.map((point) => format.kib(point.heap)),
        format.kib(row.growth),
      ]),
    );
  if (parts.has('servers'))
    console.log(
      'RSS is not steady at this scale: V8 and malloc take and release pages in MiB steps, more than the\n' +
        'connections add (after 20 connections RSS usually falls, on both sides); the JS heap figure is the steady one.',
    );
  // A run of some parts only, or without the JIT, is written beside the full run, not over it.
  const name = parts.size === 4 ? 'memory' : `memory-${[...parts].join('-')}`;
  const file = writeResult(jit ? name : `${name}-no-jit`, {
    goals: {
      perServer:
        'mcptools ≤ 170 KiB and ≤ 1.00× the SDK default client per server (marginal; the old figure beside it)',
      import: 'mcptools import ≤ 26 MiB',
      firstConnect: "mcptools RSS after import + one connected server ≤ the SDK client's + 5 MiB",
    },
    mode,
    jit,
    servers,
    repetitions,
    mcptoolsEntry: lib.entry ?? null,
    mcptoolsUnavailable: lib.unavailable ?? null,
    unit: 'bytes',
    bareRss,
    imports: importRows,
    importByModule: modules,
    perServer: serverRows,
    firstConnect: firstRows,
    firstConnectModules: firstModules,
    calls,
    growth,
    raw: { imports, perServer, firstConnect: first },
  });
  console.log(`wrote ${file}`);
  return { imports: importRows, perServer: serverRows };
}

/** Imports each module dist/index.js re-exports after the hub modules (median of 3); largest first. */
async function attributeImport() {
  const index = new URL('../dist/index.js', import.meta.url);
  const source = readFileSync(index, 'utf8');
  const specifiers = [...new Set([...source.matchAll(/from '(\.\/[^']+)'/g)].map((match) => match[1]))];
  const rows = [];
  for (const specifier of specifiers) {
    const samples = [];
    for (let repetition = 0; repetition < 3; repetition++) {
      samples.push(await child(['module', new URL(specifier, index).href]));
    }
    rows.push({
      module: `dist/${specifier.slice(2)}`,
      cost: summarize(samples.map((sample) => sample.cost)).p50,
      importMs: summarize(samples.map((sample) => sample.importMs)).p50,
    });
  }
  return rows.sort((left, right) => right.cost - left.cost);
}

/** Module URLs by where they come from: a package, a folder of dist/, Node's built-ins. */
function groupModules(modules) {
  const counts = new Map();
  for (const url of modules) {
    const inPackage = url.split('/node_modules/').at(-1);
    let group = 'other';
    if (url.startsWith('node:')) group = 'node:*';
    else if (url.includes('/node_modules/'))
      group = inPackage
        .split('/')
        .slice(0, inPackage.startsWith('@') ? 2 : 1)
        .join('/');
    else if (/\/dist\/index-[A-Z0-9]+\.js$/.test(url)) group = 'dist/index-* (chunks of the bundle)';
    else if (url.includes('/dist/')) group = `dist/${url.split('/dist/')[1].split('/')[0]}`;
    counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  return { total: modules.length, groups: [...counts].sort((a, b) => b[1] - a[1]) };
}

/** RSS with V8's unused heap capacity taken out: the young generation alone swings by 15 MiB. */
function liveResident(point) {
  return point.rss - point.heapTotal + point.heapUsed;
}

/** Bytes added per server between the child's before and after snapshots. */
function delta(sample, measure) {
  return (measure(sample.after) - measure(sample.before)) / sample.size;
}

/**
 * What one more server costs: the growth over 2N servers minus the growth over N, divided by
 * N, both measured in the same process after warm-ups (what is paid once cancels out).
 */
function marginal(sample, measure) {
  const growth = (window) => measure(window.after) - measure(window.before);
  return (growth(sample.large) - growth(sample.small)) / sample.size;
}

/** KiB to a tenth: the per-server figures differ by less than 1 KiB from change to change. */
const kib = (bytes) => format.kib(bytes, 1);

function heapAndExternal(point) {
  return point.heapUsed + point.external;
}

function codeSpace(point) {
  return point.spaces.code_space + point.spaces.code_large_object_space;
}

function labelOf(side) {
  return {
    sdk: '@modelcontextprotocol/client',
    'sdk-stdio': 'client + client/stdio',
    mcptools: 'mcptools (dist/index.js)',
    'mcptools-hub': 'mcptools hub modules only',
  }[side];
}

function child(args, flags = ['--expose-gc'], timeout = 120_000) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...flags, CHILD, ...args], { timeout }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`memory child ${args.join(' ')} failed: ${error.message}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)));
    });
  });
}
