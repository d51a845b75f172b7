// Fan-out: wall time until N stdio servers are all connected and their tools listed, for every
// side of lib/sides.mjs (the SDK's default client is the reference), for fast servers and for
// servers that take 500 ms to start. Rounds run every side once, in a balanced order (rotated,
// and reversed every other round, so that each side follows each other side equally often:
// see balancedOrder in lib/sides.mjs); every client is closed and its children given time to
// exit before the next timing. With 3 sides, a multiple of 6 repetitions completes the balance.
// Ratios to the SDK's default client are taken per round and their median reported.

import { format, printTable, writeResult } from './lib/report.mjs';
import { echoStdioCommand, minimalEchoStdioCommand, settle } from './lib/servers.mjs';
import { balancedOrder, loadSides } from './lib/sides.mjs';
import { quantile, summarize } from './lib/stats.mjs';

/**
 * Runs the fan-out benchmark. Options: `points` ([{ delayMs, servers }]), `repetitions`,
 * `sides` (names), `server`: `sdk` (default: bench/servers/echo-server.mjs) or `minimal`
 * (bare-Node 2025 server, ~0.06 s of CPU to start instead of ~0.3 s).
 */
export async function runFanOutBenchmark(options = {}) {
  const points = options.points ?? [
    { delayMs: 0, servers: 1 },
    { delayMs: 0, servers: 5 },
    { delayMs: 0, servers: 10 },
    { delayMs: 0, servers: 20 },
    { delayMs: 500, servers: 5 },
    { delayMs: 500, servers: 10 },
  ];
  const repetitions = options.repetitions ?? 3;
  const server = options.server ?? 'sdk';
  const launch = server === 'minimal' ? minimalEchoStdioCommand : echoStdioCommand;
  const { sides, skipped } = await loadSides(
    options.sides ?? ['sdk', 'sdk-auto', 'mcptools', 'mcporter', 'mastra', 'langchain'],
  );
  for (const [name, reason] of Object.entries(skipped)) console.log(`${name} skipped: ${reason}`);
  const targetsFor = ({ delayMs, servers }) =>
    Array.from({ length: servers }, () => ({
      stdio: launch(delayMs > 0 ? ['--start-delay-ms', String(delayMs)] : []),
    }));

  // One untimed pass at N = 1 loads and JIT-warms every client stack.
  for (const side of sides) await time(side, targetsFor({ delayMs: 0, servers: 1 }));
  await settle(300);

  const results = [];
  for (const point of points) {
    const targets = targetsFor(point);
    const samples = Object.fromEntries(sides.map((side) => [side.name, []]));
    const cpu = Object.fromEntries(sides.map((side) => [side.name, []]));
    const failures = Object.fromEntries(sides.map((side) => [side.name, []]));
    for (let round = 0; round < repetitions; round++) {
      for (const side of balancedOrder(sides, round)) {
        try {
          const { elapsed, cpuMs } = await time(side, targets);
          samples[side.name].push(elapsed);
          cpu[side.name].push(cpuMs);
        } catch (error) {
          samples[side.name].push(Number.NaN);
          cpu[side.name].push(Number.NaN);
          failures[side.name].push(String(error?.message ?? error).slice(0, 200));
        }
        await settle(200);
      }
    }
    const ratioOf = (name) =>
      quantile(samples[name].map((value, index) => value / samples.sdk[index]).filter(Number.isFinite), 0.5);
    results.push({
      ...point,
      sides: sides.map((side) => ({
        name: side.name,
        ...summarize(samples[side.name].filter(Number.isFinite)),
        ratio: ratioOf(side.name),
        clientCpuMs: quantile(cpu[side.name].filter(Number.isFinite), 0.5),
        samples: samples[side.name],
        clientCpuSamples: cpu[side.name],
        failures: failures[side.name],
      })),
    });
    console.log(
      `fan-out ${point.servers} × ${point.delayMs} ms: ${results
        .at(-1)
        .sides.map(
          (side) =>
            `${side.name} ${format.ms(side.p50)} (${format.ratio(side.ratio)}; client CPU ${format.ms(side.clientCpuMs)})`,
        )
        .join(', ')}`,
    );
  }

  printTable(
    `Fan-out: N stdio servers (${server === 'minimal' ? 'minimal' : 'SDK'} echo server) connected + tools listed, p50 of ${repetitions} rounds; ratio = median over rounds of side ÷ SDK default`,
    ['start delay', 'N', ...sides.map((side) => side.name)],
    results.map((result) => [
      `${result.delayMs} ms`,
      result.servers,
      ...result.sides.map((side) => `${format.ms(side.p50)} ${format.ratio(side.ratio)}`),
    ]),
  );
  printTable(
    'Fan-out: CPU time of the client process itself (servers excluded), p50 — the part a client controls',
    ['start delay', 'N', ...sides.map((side) => side.name)],
    results.map((result) => [
      `${result.delayMs} ms`,
      result.servers,
      ...result.sides.map((side) => format.ms(side.clientCpuMs)),
    ]),
  );
  const file = writeResult(server === 'minimal' ? 'fanout-minimal-server' : 'fanout', {
    goal: 'mcptools ≤ 1.05× the SDK client in its default mode at every point',
    server,
    repetitions,
    skipped,
    unit: 'ms',
    results,
  });
  console.log(`wrote ${file}`);
  return results;
}

/** Wall time of one fan-out, and the CPU this process (the client, not its servers) spent on it. */
async function time(side, targets) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const handle = await side.open(targets);
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  await handle.close();
  return { elapsed, cpuMs: (cpu.user + cpu.system) / 1000 };
}
