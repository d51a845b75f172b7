// Sums a test run's CPU log (`MCPTOOLS_TEST_CPU_LOG=<file> npm test`, one JSON line per test file
// from test/helpers/file-cpu.ts) and lists the files that cost most; given a second log, it lists
// both side by side (the first is the baseline), to see what a change to the tests saved.
//   node scripts/test-cpu-summary.mjs after.jsonl [before.jsonl] [--top N]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
// Without --top, topAt + 1 is 0: the first log would be taken for --top's number.
const [after, before] = args.filter(
  (arg, index) => !arg.startsWith('--') && (topAt < 0 || index !== topAt + 1),
);
if (!after) {
  console.error('usage: node scripts/test-cpu-summary.mjs after.jsonl [before.jsonl] [--top N]');
  process.exit(2);
}

/** The log's lines by file; a file logged twice (a rerun) keeps its last line. */
function read(path) {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return new Map(lines.map((line) => JSON.parse(line)).map((row) => [row.file, row]));
}

function totals(rows) {
  let own = 0;
  let children = 0;
  for (const row of rows.values()) {
    own += row.own;
    children += row.children;
  }
  return `${rows.size} files, ${(own + children).toFixed(0)} CPU-s (${own.toFixed(0)} in the workers, ${children.toFixed(0)} in child processes)`;
}

const cpu = (row) => (row ? row.own + row.children : Number.NaN);
const now = read(after);
const then = before ? read(before) : undefined;
if (then) console.log(`before: ${totals(then)}`);
console.log(`${then ? 'after:  ' : ''}${totals(now)}`);
const files = [...new Set([...now.keys(), ...(then?.keys() ?? [])])];
files.sort(
  (a, b) =>
    Math.max(cpu(then?.get(b)) || 0, cpu(now.get(b)) || 0) -
    Math.max(cpu(then?.get(a)) || 0, cpu(now.get(a)) || 0),
);
for (const file of files.slice(0, top)) {
  const columns = then ? [cpu(then.get(file)), cpu(now.get(file))] : [cpu(now.get(file))];
  console.log(`${columns.map((value) => value.toFixed(1).padStart(6)).join(' ')}  ${file}`);
}
