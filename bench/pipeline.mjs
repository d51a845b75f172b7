// The cost of the tool-call pipeline on the call path: one `echo` call over stdio through
// mcptools' hub, interleaved in the same run (lib/../call.mjs's rounds), for three sides:
//   base        — a build of the tree before the pipeline (`--base=<dir>`: its dist/), no hooks
//   base-again  — the same build again, its own hub and server: the A/A line, i.e. the noise floor
//   mcptools    — this build, no middleware (the pipeline's zero-cost path)
//   hook+audit  — this build with one `beforeToolCall` (returns nothing) and the audit log on
// Usage: node bench/run.mjs pipeline --base=/tmp/base-tree [--rounds=20] [--calls=200]
// (build the base with: git archive <commit> | tar -x -C DIR; ln -s $PWD/node_modules DIR/; cd DIR; npx tsc -p tsconfig.build.json)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureTransport } from './call.mjs';
import { loadHub, loadMcpTools } from './lib/mcptools-side.mjs';
import { format, printTable, writeResult } from './lib/report.mjs';

const option = (name, fallback) => {
  const found = process.argv.find((argument) => argument.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
};
const base = option('base', undefined);
if (base === undefined) {
  console.error('usage: node bench/pipeline.mjs --base=<tree with a built dist/> [--rounds=N] [--calls=N]');
  process.exit(2);
}
const rounds = Number(option('rounds', 20));
const perRound = Number(option('calls', 200));
const scratch = mkdtempSync(join(tmpdir(), 'mcptools-bench-pipeline-'));

const textOf = (result) => result.content.map((block) => block.text ?? '').join('');
const current = await loadMcpTools();
const baseModule = await import(pathToFileURL(join(base, 'dist', 'index.js')).href);
// A base built before the one casing exports the hub's loader as `loadMCPServers`.
const baseLib = {
  loadMcpServers: baseModule.loadMcpServers ?? baseModule.loadMCPServers,
  ToolRegistry: baseModule.ToolRegistry,
};

function side(name, lib, setup = () => undefined) {
  return {
    name,
    async open([target]) {
      const servers = { echo0: { type: 'stdio', command: target.stdio.command, args: target.stdio.args } };
      const { registry, provider } = await loadHub(lib, servers, 1);
      const cleanup = await setup(registry);
      const tool = registry.get('echo0__echo');
      let id = 0;
      return {
        call: async (_index, text) => textOf(await tool.execute(`bench-${id++}`, { text })),
        close: async () => {
          await provider.close();
          await cleanup?.();
        },
      };
    },
  };
}

const sides = [
  side('base', baseLib),
  side('base-again', baseLib),
  side('mcptools', current),
  side('hook+audit', current, async (registry) => {
    const { configPolicies } = await import('../dist/policies.js');
    registry.use({ name: 'bench-hook', beforeToolCall: () => undefined });
    const policies = configPolicies({ audit: { file: join(scratch, 'audit.jsonl') } });
    for (const middleware of policies.middlewares) registry.use(middleware);
    return () => policies.close();
  }),
];

const result = await measureTransport('stdio', sides, {
  rounds,
  perRound,
  inFlight: 50,
  batch: 1000,
  warmup: 500,
});
rmSync(scratch, { recursive: true, force: true });
const byName = new Map(result.sides.map((entry) => [entry.name, entry]));
const quantileOf = (values, q) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
const median = (values) => quantileOf(values, 0.5);
const ratios = (name, reference) =>
  byName
    .get(name)
    .latencyRoundP50s.map((value, index) => value / byName.get(reference).latencyRoundP50s[index]);
const perRoundVs = (name, reference) => median(ratios(name, reference));
// The spread of the per-round ratios (p25–p75): how far one round's ratio wanders.
const spread = (name, reference) =>
  `${quantileOf(ratios(name, reference), 0.25).toFixed(3)}–${quantileOf(ratios(name, reference), 0.75).toFixed(3)}`;
const deltaUs = (name, reference) =>
  median(
    byName
      .get(name)
      .latencyRoundP50s.map((value, index) => (value - byName.get(reference).latencyRoundP50s[index]) * 1000),
  );
printTable(
  `pipeline cost, stdio echo call (${rounds} rounds × ${perRound} sequential calls, interleaved)`,
  ['side', 'p50', 'p95', 'calls/s', 'p50 vs base (per-round median)', 'p25–p75 of rounds', 'Δ p50 vs base'],
  result.sides.map((entry) => [
    entry.name,
    format.us(entry.latency.p50),
    format.us(entry.latency.p95),
    String(Math.round(entry.throughput.p50)),
    `${perRoundVs(entry.name, 'base').toFixed(3)}×`,
    spread(entry.name, 'base'),
    `${deltaUs(entry.name, 'base').toFixed(1)} µs`,
  ]),
);
console.log(
  `hook+audit vs mcptools (no hooks), per-round median: ${perRoundVs('hook+audit', 'mcptools').toFixed(3)}×, ${deltaUs('hook+audit', 'mcptools').toFixed(1)} µs per call`,
);
writeResult('pipeline', result);
process.exit(0);
