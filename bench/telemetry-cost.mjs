// What telemetry costs a stdio tool call (issue 30): the p50 of sequential `echo` calls through
// the hub with telemetry off (no SDK: the API's no-op), against the code before telemetry when
// `--baseline=DIR` names its built dist/ (goal: within 2%), and with traces sampled at 100% to a
// local OTLP/HTTP receiver plus metrics on (goal: ≤ 30 µs added). Each side runs in its own
// process (the SDK is global); blocks of calls interleave across the sides, the order rotating
// every round, so machine noise lands on all of them; ratios are taken per round, their median
// reported.
//   node bench/telemetry-cost.mjs [--baseline=/tmp/base/dist] [--rounds=10] [--calls=300] [--split]
// (`--split` adds a side with traces only and one with metrics only.)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { format, printTable, writeResult } from './lib/report.mjs';
import { quantile } from './lib/stats.mjs';

const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
const rounds = Number(flag('rounds') ?? 10);
const calls = Number(flag('calls') ?? 300);
const warmup = Number(flag('warmup') ?? 500);
const baseline = flag('baseline');
const here = fileURLToPath(new URL('.', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));

// The OTLP receiver runs here; the sides are other processes, so its work is not theirs.
let spansReceived = 0;
const receiver = createServer((request, response) => {
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
  });
  request.on('end', () => {
    if (request.url === '/v1/traces' && size > 0) spansReceived++;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const otlp = `http://127.0.0.1:${receiver.address().port}`;

function startSide(name, sideDist, mode) {
  const child = spawn(
    process.execPath,
    [`${here}telemetry-cost-child.mjs`, `--dist=${sideDist}`, `--mode=${mode}`, `--otlp=${otlp}`],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value);
  return {
    name,
    ready: next(),
    async run(count) {
      child.stdin.write(`run ${count}\n`);
      return (await next()).latencies;
    },
    stop() {
      child.stdin.end('run 0\n');
    },
  };
}

const sides = [
  ...(baseline ? [startSide('before telemetry (baseline)', baseline, 'off')] : []),
  startSide('telemetry off', dist, 'off'),
  startSide('traces 100% + metrics', dist, 'on'),
  ...(process.argv.includes('--split')
    ? [startSide('traces 100% only', dist, 'traces'), startSide('metrics only', dist, 'metrics')]
    : []),
];
await Promise.all(sides.map((side) => side.ready));
for (const side of sides) await side.run(warmup);

const samples = new Map(sides.map((side) => [side.name, []]));
const perRound = new Map(sides.map((side) => [side.name, []]));
for (let round = 0; round < rounds; round++) {
  const order = sides.map((_, index) => sides[(index + round) % sides.length]);
  for (const side of order) {
    const latencies = await side.run(calls);
    samples.get(side.name).push(...latencies);
    perRound.get(side.name).push(quantile(latencies, 0.5));
  }
}
for (const side of sides) side.stop();
receiver.close();

const reference = baseline ? 'before telemetry (baseline)' : 'telemetry off';
const rows = sides.map((side) => {
  const p50s = perRound.get(side.name);
  const ratios = p50s.map((p50, round) => p50 / perRound.get(reference)[round]);
  const added = p50s.map((p50, round) => (p50 - perRound.get(reference)[round]) * 1000);
  const all = samples.get(side.name);
  return {
    side: side.name,
    p50: quantile(all, 0.5),
    p95: quantile(all, 0.95),
    ratio: quantile(ratios, 0.5),
    addedMicros: quantile(added, 0.5),
  };
});
printTable(
  `Stdio echo call through the hub, ${rounds} rounds × ${calls} sequential calls per side (medians of per-round figures against "${reference}")`,
  ['side', 'p50', 'p95', 'p50 ratio', 'added µs (p50)'],
  rows.map((row) => [
    row.side,
    format.us(row.p50),
    format.us(row.p95),
    format.ratio(row.ratio),
    row.addedMicros.toFixed(1),
  ]),
);
console.log(`OTLP export requests received: ${spansReceived}`);
const file = writeResult('telemetry-cost', {
  goal: 'telemetry off: p50 within 2% of the code before; traces 100% + metrics: ≤ 30 µs added per call',
  rounds,
  calls,
  warmup,
  reference,
  unit: 'ms',
  rows,
  otlpRequests: spansReceived,
});
console.log(`wrote ${file}`);
