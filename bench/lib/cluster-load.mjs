// The load the cluster benchmark puts on a side: sequential calls (latency) and bursts with many
// calls in flight (throughput), sides interleaved in rotating rounds so a busy machine's noise
// lands on every side alike.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { summarize } from './stats.mjs';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

/** CPU time (user + system, ms) the processes `pids` have used so far (`/proc/<pid>/stat`). */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * TICK_MS;
}

/** An SDK client of `url`: a 2026-07-28 one (`modern`, auto negotiation) or the 2025 default. */
export async function connect(url, era, options = {}) {
  const client = new Client(
    { name: 'bench-cluster', version: '1.0.0' },
    {
      ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}),
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/**
 * A side that calls `echo__echo` through `clients` (worker `n` uses client `n` modulo their
 * count); `pids`: the gateway processes serving it, whose CPU time per call is measured.
 */
export function side(name, clients, pids = []) {
  return {
    name,
    clients,
    pids,
    call(worker = 0) {
      return clients[worker % clients.length].callTool({ name: 'echo__echo', arguments: { text: 'hello' } });
    },
  };
}

/** p50/p95 of sequential calls per side, after 100 warm-up calls each. */
export async function latency(sides, { rounds, perRound }) {
  for (const item of sides) for (let index = 0; index < 100; index++) await item.call(0);
  const samples = Object.fromEntries(sides.map((item) => [item.name, []]));
  for (let round = 0; round < rounds; round++) {
    const shift = round % sides.length;
    for (const item of [...sides.slice(shift), ...sides.slice(0, shift)])
      for (let index = 0; index < perRound; index++) {
        const start = performance.now();
        await item.call(0);
        samples[item.name].push(performance.now() - start);
      }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)]));
}

async function burst(item, { inFlight, perBurst }) {
  let started = 0;
  let failed = 0;
  const cpuBefore = cpuMs(item.pids);
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async (_unused, worker) => {
      while (started < perBurst) {
        started++;
        const result = await item.call(worker).catch((error) => ({ isError: true, error }));
        if (result.isError) {
          failed++;
          item.failures = [...(item.failures ?? []), String(result.error ?? JSON.stringify(result.content))];
        }
      }
    }),
  );
  return {
    callsPerSecond: (perBurst / (performance.now() - begin)) * 1000,
    cpuMsPerCall: (cpuMs(item.pids) - cpuBefore) / perBurst,
    failed,
  };
}

/** Calls per second per side, `inFlight` calls at a time, `perBurst` calls a burst, one warm-up burst each. */
export async function throughput(sides, { rounds, inFlight, perBurst }) {
  for (const item of sides) await burst(item, { inFlight, perBurst });
  const rates = Object.fromEntries(sides.map((item) => [item.name, []]));
  const cpu = Object.fromEntries(sides.map((item) => [item.name, []]));
  let failed = 0;
  for (let round = 0; round < rounds; round++) {
    const shift = round % sides.length;
    for (const item of [...sides.slice(shift), ...sides.slice(0, shift)]) {
      const result = await burst(item, { inFlight, perBurst });
      rates[item.name].push(result.callsPerSecond);
      cpu[item.name].push(result.cpuMsPerCall);
      failed += result.failed;
    }
  }
  const each = (table) => Object.fromEntries(sides.map((item) => [item.name, summarize(table[item.name])]));
  // CPU per call of the gateway processes: what the machine's load does not change much.
  return { rates: each(rates), cpuMsPerCall: each(cpu), failed };
}

/** Redis commands served while `run` runs, by name; the heartbeats' `SET`s and `INFO` left out. */
export async function commandsDuring(redis, run) {
  const before = await redis.commandCounts();
  await run();
  const after = await redis.commandCounts();
  const counts = {};
  for (const [name, calls] of Object.entries(after)) {
    const delta = calls - (before[name] ?? 0);
    if (delta > 0 && name !== 'set' && name !== 'info') counts[name] = delta;
  }
  return counts;
}
