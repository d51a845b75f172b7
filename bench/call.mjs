// Calls: latency of one `echo` call (sequential) and throughput with 50 calls in flight, over
// stdio and Streamable HTTP, for every side of lib/sides.mjs against the same echo server
// (bench/servers/echo-server.mjs, both eras). Rounds interleave the sides, and the order
// rotates every round, so machine noise lands on all of them; ratios to the SDK's default
// client are taken per round and their median reported.

import { format, printTable, writeResult } from './lib/report.mjs';
import { echoStdioCommand, settle, startHttpEcho } from './lib/servers.mjs';
import { loadSides, rotated } from './lib/sides.mjs';
import { quantile, summarize } from './lib/stats.mjs';

/**
 * Runs the call benchmark. Options: `rounds`, `perRound` (sequential calls per side per
 * round), `inFlight` and `batch` (throughput: calls per side per round, `inFlight` at once),
 * `warmup`, `sides` (names), `transports`.
 */
export async function runCallBenchmark(options = {}) {
  const rounds = options.rounds ?? 10;
  const perRound = options.perRound ?? 100;
  const inFlight = options.inFlight ?? 50;
  const batch = options.batch ?? 1000;
  const warmup = options.warmup ?? 300;
  const { sides, skipped } = await loadSides(
    options.sides ?? ['sdk', 'sdk-auto', 'mcptools', 'mcptools-auto', 'mcporter', 'mastra', 'langchain'],
  );
  for (const [name, reason] of Object.entries(skipped)) console.log(`${name} skipped: ${reason}`);
  const results = [];
  for (const transport of options.transports ?? ['stdio', 'http']) {
    results.push(await measureTransport(transport, sides, { rounds, perRound, inFlight, batch, warmup }));
    await settle(300);
  }
  for (const result of results) {
    printTable(
      `Calls over ${result.transport}: sequential latency (${rounds}×${perRound} per side) and ${inFlight} in flight (${rounds}×${batch} per side); ratios = median over rounds of side ÷ SDK default`,
      [
        'side',
        'era',
        'p50',
        'p95',
        'p50 ratio',
        'p50 ÷ SDK auto',
        'calls/s',
        'calls/s ratio',
        '÷ SDK auto',
        'failed',
      ],
      result.sides.map((side) => [
        side.name,
        side.era ?? '—',
        format.us(side.latency.p50),
        format.us(side.latency.p95),
        format.ratio(side.latencyRatio),
        format.ratio(side.latencyRatioAuto),
        side.throughput === null ? '—' : side.throughput.p50.toFixed(0),
        format.ratio(side.throughputRatio),
        format.ratio(side.throughputRatioAuto),
        side.failed,
      ]),
    );
  }
  const file = writeResult('call', {
    goal: 'p50 ≤ 1.00× and 50-in-flight throughput ≥ 1.00× the SDK client in its default mode',
    rounds,
    perRound,
    inFlight,
    batch,
    warmup,
    skipped,
    unit: 'ms',
    results,
  });
  console.log(`wrote ${file}`);
  return results;
}

export async function measureTransport(transport, sides, { rounds, perRound, inFlight, batch, warmup }) {
  const http = transport === 'http' ? await startHttpEcho() : undefined;
  const target = http ? { url: http.url } : { stdio: echoStdioCommand() };
  const open = [];
  try {
    for (const side of sides) open.push({ side, handle: await side.open([target]) });
    for (const { side, handle } of open) {
      const text = await handle.call(0, 'hello');
      if (text !== 'hello') throw new Error(`${side.name}: echo returned ${text}`);
      for (let index = 0; index < warmup; index++) await handle.call(0, 'hello');
    }
    const latency = new Map(open.map(({ side }) => [side.name, { all: [], rounds: [] }]));
    const throughput = new Map(open.map(({ side }) => [side.name, []]));
    const failed = new Map(open.map(({ side }) => [side.name, 0]));
    for (let round = 0; round < rounds; round++) {
      for (const { side, handle } of rotated(open, round).map((entry) => entry)) {
        const samples = [];
        for (let index = 0; index < perRound; index++) {
          const start = performance.now();
          try {
            await handle.call(0, 'hello');
            samples.push(performance.now() - start);
          } catch {
            failed.set(side.name, failed.get(side.name) + 1);
          }
        }
        latency.get(side.name).all.push(...samples);
        latency.get(side.name).rounds.push(quantile(samples, 0.5));
      }
      for (const { side, handle } of rotated(open, round + 1)) {
        const { perSecond, failures } = await pool(handle, batch, inFlight);
        throughput.get(side.name).push(perSecond);
        failed.set(side.name, failed.get(side.name) + failures);
      }
    }
    const names = new Set(open.map(({ side }) => side.name));
    const perRoundRatio = (series, name, reference = 'sdk') => {
      if (!names.has(reference)) return null;
      const own = series(name);
      const base = series(reference);
      return quantile(
        own.map((value, index) => value / base[index]),
        0.5,
      );
    };
    return {
      transport,
      sides: open.map(({ side, handle }) => ({
        name: side.name,
        era: handle.era ?? null,
        latency: summarize(latency.get(side.name).all),
        latencyRatio: perRoundRatio((name) => latency.get(name).rounds, side.name),
        // The same era on both sides: the SDK client in `auto` mode lands on 2026-07-28 here.
        latencyRatioAuto: perRoundRatio((name) => latency.get(name).rounds, side.name, 'sdk-auto'),
        latencyRoundP50s: latency.get(side.name).rounds,
        throughput: summarize(throughput.get(side.name)),
        throughputRatio: perRoundRatio((name) => throughput.get(name), side.name),
        throughputRatioAuto: perRoundRatio((name) => throughput.get(name), side.name, 'sdk-auto'),
        throughputRounds: throughput.get(side.name),
        failed: failed.get(side.name),
      })),
    };
  } finally {
    for (const { handle } of open) await handle.close().catch(() => {});
    await http?.close();
  }
}

/** `total` calls with `inFlight` at once; resolves calls per second and the count that failed. */
async function pool(handle, total, inFlight) {
  let started = 0;
  let failures = 0;
  const begin = performance.now();
  const worker = async () => {
    while (started < total) {
      started++;
      try {
        await handle.call(0, 'hello');
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { perSecond: ((total - failures) / (performance.now() - begin)) * 1000, failures };
}
