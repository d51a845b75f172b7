// What telemetry costs a stdio tool call: sequential `echo` calls through the hub, each
// side in its own process (the SDK is global). The reference is the same source built with its
// telemetry cut out (bench/lib/build-without-telemetry.mjs; or `--baseline=DIR`, any built
// dist/), run twice as two sides ("A" and "B") so that the A/B spread shows the noise floor of
// the run. Sides: telemetry off (goal: p50 within 2% of the reference) and traces sampled at 100%
// to a local OTLP/HTTP receiver plus metrics on (goal: ≤ 30 µs added per call). Blocks of calls
// interleave across the sides, the order rotating every round, so machine noise lands on all of
// them; per-round p50 ratios are reported as their median and interquartile range, and each
// side's CPU time per call (its process's user + system time over the block, / calls).
//   node bench/run.mjs telemetry-cost [--baseline=DIR] [--rounds=20] [--calls=300] [--split]
// (`--split` adds a side with traces only and one with metrics only; `--as-gateway` runs every
// call of every side under a caller scope, as `serve` does: see telemetry-cost-child.mjs.)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildWithoutTelemetry } from './lib/build-without-telemetry.mjs';
import { format, printTable, writeResult } from './lib/report.mjs';
import { quantile } from './lib/stats.mjs';

const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
const rounds = Number(flag('rounds') ?? 20);
const calls = Number(flag('calls') ?? 300);
const warmup = Number(flag('warmup') ?? 500);
const baseline = flag('baseline') ?? buildWithoutTelemetry();
const asGateway = process.argv.includes('--as-gateway');
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
    [
      `${here}telemetry-cost-child.mjs`,
      `--dist=${sideDist}`,
      `--mode=${mode}`,
      `--otlp=${otlp}`,
      ...(asGateway ? ['--as-gateway'] : []),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value);
  return {
    name,
    ready: next(),
    /** The latencies (ms) of `count` sequential calls, and the CPU (µs) the side's process used for them. */
    async run(count) {
      child.stdin.write(`run ${count}\n`);
      return next();
    },
    stop() {
      child.stdin.end('run 0\n');
    },
  };
}

const REFERENCE = 'without telemetry A';
const sides = [
  startSide(REFERENCE, baseline, 'off'),
  startSide('without telemetry B (noise control)', baseline, 'off'),
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
const cpu = new Map(sides.map((side) => [side.name, []]));
for (let round = 0; round < rounds; round++) {
  const order = sides.map((_, index) => sides[(index + round) % sides.length]);
  for (const side of order) {
    const { latencies, cpuMicros } = await side.run(calls);
    samples.get(side.name).push(...latencies);
    cpu.get(side.name).push(cpuMicros / calls);
    perRound.get(side.name).push(quantile(latencies, 0.5));
  }
}
for (const side of sides) side.stop();
receiver.close();

const reference = REFERENCE;
const rows = sides.map((side) => {
  const p50s = perRound.get(side.name);
  const ratios = p50s.map((p50, round) => p50 / perRound.get(reference)[round]);
  const added = p50s.map((p50, round) => (p50 - perRound.get(reference)[round]) * 1000);
  const all = samples.get(side.name);
  const cpus = cpu.get(side.name);
  const addedCpu = cpus.map((value, round) => value - cpu.get(reference)[round]);
  return {
    side: side.name,
    p50: quantile(all, 0.5),
    p95: quantile(all, 0.95),
    ratio: quantile(ratios, 0.5),
    ratioIqr: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    addedMicros: quantile(added, 0.5),
    cpuMicrosPerCall: quantile(cpus, 0.5),
    addedCpuMicros: quantile(addedCpu, 0.5),
    addedCpuIqr: [quantile(addedCpu, 0.25), quantile(addedCpu, 0.75)],
  };
});
printTable(
  `Stdio echo call through the hub${asGateway ? ' (under a caller scope, as serve runs it)' : ''}, ${rounds} rounds × ${calls} sequential calls per side (medians of per-round figures against "${reference}")`,
  ['side', 'p50', 'p95', 'p50 ratio (IQR)', 'added µs (p50)', 'CPU µs/call', 'added CPU µs (IQR)'],
  rows.map((row) => [
    row.side,
    format.us(row.p50),
    format.us(row.p95),
    `${row.ratio.toFixed(3)} (${row.ratioIqr[0].toFixed(3)}–${row.ratioIqr[1].toFixed(3)})`,
    row.addedMicros.toFixed(1),
    row.cpuMicrosPerCall.toFixed(1),
    `${row.addedCpuMicros.toFixed(1)} (${row.addedCpuIqr[0].toFixed(1)}–${row.addedCpuIqr[1].toFixed(1)})`,
  ]),
);
console.log(`OTLP export requests received: ${spansReceived}`);
const file = writeResult('telemetry-cost', {
  goal: 'telemetry off: p50 within 2% of the same source without telemetry; traces 100% + metrics: ≤ 30 µs added per call',
  baseline,
  asGateway,
  rounds,
  calls,
  warmup,
  reference,
  unit: 'ms',
  rows,
  otlpRequests: spansReceived,
});
console.log(`wrote ${file}`);
