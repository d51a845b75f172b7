// CLI start-up time: wall time of `mcptools --help`, every
// `<command> --help` and `mcptools config`, 10 runs each (interleaved rounds, order rotated),
// median and p95, beside `node -e 0` measured in the same rounds (Node's own start-up on this
// machine). Budget: ≤ 150 ms median. Run `npm run build` first.
//   node bench/cli-start.mjs [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, printTable, warnIfBusy, writeResult } from './lib/report.mjs';
import { summarize } from './lib/stats.mjs';

const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 10;
const BUDGET_MS = 150;
// The package's `bin`: the bundle scripts/bundle-cli.mjs writes after tsc.
const bin = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));

const COMMANDS = [
  'servers',
  'tools',
  'call',
  'resources',
  'read',
  'prompts',
  'prompt',
  'config',
  'doctor',
  'serve',
  'demo',
  'auth',
];
const cases = [
  { name: 'node -e 0 (reference)', args: ['-e', '0'], node: true },
  { name: 'mcptools --help', args: ['--help'] },
  ...COMMANDS.map((command) => ({ name: `mcptools ${command} --help`, args: [command, '--help'] })),
  { name: 'mcptools config', args: ['config'] },
  { name: 'mcptools config --json', args: ['--json', 'config'] },
];

// `config` reads a real file (no server is started), in a directory of its own.
const dir = mkdtempSync(join(tmpdir(), 'mcptools-cli-start-'));
writeFileSync(
  join(dir, 'mcptools.json'),
  JSON.stringify({
    servers: {
      files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
      remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
    },
  }),
);

/**
 * CPU time (user + system) of this process's waited-for children, in ms, from
 * /proc/self/stat (Linux; clock ticks of 10 ms). Less sensitive than wall time to other
 * processes competing for the CPUs; `undefined` elsewhere.
 */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After "pid (comm) ", field 3 is state; cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

function timeOnce({ args, node }) {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, node ? args : [bin, ...args], { cwd: dir, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childrenCpuMs();
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

warnIfBusy();
const samples = new Map(cases.map((entry) => [entry.name, []]));
const cpuSamples = new Map(cases.map((entry) => [entry.name, []]));
for (const entry of cases) timeOnce(entry); // warm the file cache once
for (let round = 0; round < RUNS; round++) {
  const order = cases.map((_unused, index) => cases[(index + round) % cases.length]);
  for (const entry of order) {
    const { ms, cpuMs } = timeOnce(entry);
    samples.get(entry.name).push(ms);
    if (cpuMs !== undefined) cpuSamples.get(entry.name).push(cpuMs);
  }
}
rmSync(dir, { recursive: true, force: true });

const reference = summarize(samples.get(cases[0].name)).p50;
const rows = [];
const results = [];
for (const entry of cases) {
  const stats = summarize(samples.get(entry.name));
  const cpu = summarize(cpuSamples.get(entry.name));
  const overNode = entry.node ? null : stats.p50 - reference;
  results.push({
    name: entry.name,
    ...stats,
    cpuP50: cpu.n > 0 ? cpu.p50 : null,
    overNodeMs: overNode,
    withinBudget: entry.node ? null : stats.p50 <= BUDGET_MS,
  });
  rows.push([
    entry.name,
    format.ms(stats.p50),
    format.ms(stats.p95),
    format.ms(stats.min),
    cpu.n > 0 ? format.ms(cpu.p50) : '—',
    overNode === null ? '—' : `+${overNode.toFixed(0)} ms`,
    entry.node ? '' : stats.p50 <= BUDGET_MS ? 'yes' : 'NO',
  ]);
}
printTable(
  `CLI start-up, ${RUNS} runs each (Node ${process.version})`,
  ['command', 'p50', 'p95', 'min', 'CPU p50', 'p50 − node', `≤ ${BUDGET_MS} ms`],
  rows,
);
console.log(`\nwrote ${writeResult('cli-start', { runs: RUNS, budgetMs: BUDGET_MS, results })}`);
