// The cluster benchmark (issue 27): what cluster mode costs a call. Run it after a build:
//
//   npm run build && node --import tsx bench/cluster.mjs [--quick]
//
// Everything sits behind the same test balancer (test/cluster/cluster-harness.ts, in this
// process), so its cost lands on every side alike:
// - 2026-07-28 calls: one single-process gateway vs a 2-replica cluster (round robin) on a private
//   redis-server. Latency: sequential calls, p50/p95. Throughput: 50 calls in flight from 10 clients.
// - A 2025 session's calls: every request on its owner (direct) vs every request on the other
//   replica (forwarded to the owner).
// - Redis commands per call (INFO commandstats), the heartbeat's SETs left out.
// Sides are interleaved in rotating rounds. Results: bench/results/cluster.json.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  newClusterKey,
  scratchDir,
  startBalancer,
  startRedis,
  startReplica,
  writeConfig,
} from '../test/cluster/cluster-harness.ts';
import { printTable, writeResult } from './lib/report.mjs';
import { echoStdioCommand } from './lib/servers.mjs';
import { ratio, summarize } from './lib/stats.mjs';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 6;
const PER_ROUND = quick ? 50 : 150;
const IN_FLIGHT = 50;
const PER_BURST = quick ? 300 : 1000;
const CLIENTS = 10;

async function connect(url, era) {
  const client = new Client(
    { name: 'bench-cluster', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function side(name, clients) {
  return {
    name,
    clients,
    call(worker = 0) {
      return clients[worker % clients.length].callTool({ name: 'echo__echo', arguments: { text: 'hello' } });
    },
  };
}

async function latency(sides) {
  for (const item of sides) for (let index = 0; index < 100; index++) await item.call(0);
  const samples = Object.fromEntries(sides.map((item) => [item.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const shift = round % sides.length;
    for (const item of [...sides.slice(shift), ...sides.slice(0, shift)])
      for (let index = 0; index < PER_ROUND; index++) {
        const start = performance.now();
        await item.call(0);
        samples[item.name].push(performance.now() - start);
      }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)]));
}

async function burst(item) {
  let started = 0;
  let failed = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_unused, worker) => {
      while (started < PER_BURST) {
        started++;
        const result = await item.call(worker).catch(() => ({ isError: true }));
        if (result.isError) failed++;
      }
    }),
  );
  return { callsPerSecond: (PER_BURST / (performance.now() - begin)) * 1000, failed };
}

async function throughput(sides) {
  for (const item of sides) await burst(item);
  const rates = Object.fromEntries(sides.map((item) => [item.name, []]));
  let failed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const shift = round % sides.length;
    for (const item of [...sides.slice(shift), ...sides.slice(0, shift)]) {
      const result = await burst(item);
      rates[item.name].push(result.callsPerSecond);
      failed += result.failed;
    }
  }
  return { rates: Object.fromEntries(sides.map((item) => [item.name, summarize(rates[item.name])])), failed };
}

/** Redis commands served while `run` runs, heartbeat SETs left out. */
async function commandsDuring(redis, run) {
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

const dir = scratchDir();
const started = [];
try {
  const redis = await startRedis(dir.path);
  started.push({ stop: () => redis.stop() });
  const config = writeConfig(dir.path, { echo: echoStdioCommand() });
  const key = newClusterKey();
  const single = await startReplica({ name: 'single', config });
  const [a, b] = await Promise.all(
    ['a', 'b'].map((name) => startReplica({ name, config, redis: redis.url, key })),
  );
  started.push(single, a, b);
  const singleLb = await startBalancer([single]);
  const clusterLb = await startBalancer([a, b]);
  started.push({ stop: () => singleLb.close() }, { stop: () => clusterLb.close() });

  // 2026-07-28: single process vs 2-replica cluster, both behind the balancer.
  const modernSingle = side(
    '2026 · single process',
    await Promise.all(Array.from({ length: CLIENTS }, () => connect(singleLb.url, 'modern'))),
  );
  const modernCluster = side(
    '2026 · 2-replica cluster',
    await Promise.all(Array.from({ length: CLIENTS }, () => connect(clusterLb.url, 'modern'))),
  );
  const modernLatency = await latency([modernSingle, modernCluster]);
  const modernThroughput = await throughput([modernSingle, modernCluster]);

  // 2025: a session owned by A, its calls sent to A (direct) or to B (forwarded).
  clusterLb.route = () => 0;
  const owned = await connect(clusterLb.url, 'legacy');
  const direct = {
    name: '2025 · owner direct',
    call: () => {
      clusterLb.route = () => 0;
      return owned.callTool({ name: 'echo__echo', arguments: { text: 'hello' } });
    },
  };
  const forwarded = {
    name: '2025 · forwarded by the other replica',
    call: () => {
      clusterLb.route = () => 1;
      return owned.callTool({ name: 'echo__echo', arguments: { text: 'hello' } });
    },
  };
  const legacyLatency = await latency([direct, forwarded]);

  // Redis commands per call.
  const COUNTED = 200;
  clusterLb.route = (info) => info.count % 2;
  const modernCommands = await commandsDuring(redis, async () => {
    for (let index = 0; index < COUNTED; index++) await modernCluster.call(0);
  });
  const directCommands = await commandsDuring(redis, async () => {
    for (let index = 0; index < COUNTED; index++) await direct.call();
  });
  const forwardedCommands = await commandsDuring(redis, async () => {
    for (let index = 0; index < COUNTED; index++) await forwarded.call();
  });
  const perCall = (counts) => Object.values(counts).reduce((sum, value) => sum + value, 0) / COUNTED;

  const result = {
    modern: {
      latency: modernLatency,
      throughput: modernThroughput,
      latencyRatio: ratio(modernLatency[modernCluster.name].p50, modernLatency[modernSingle.name].p50),
      throughputRatio: ratio(
        modernThroughput.rates[modernCluster.name].p50,
        modernThroughput.rates[modernSingle.name].p50,
      ),
    },
    legacy: {
      latency: legacyLatency,
      forwardedRatio: ratio(legacyLatency[forwarded.name].p50, legacyLatency[direct.name].p50),
    },
    redisCommandsPerCall: {
      modern: { perCall: perCall(modernCommands), commands: modernCommands },
      legacyDirect: { perCall: perCall(directCommands), commands: directCommands },
      legacyForwarded: { perCall: perCall(forwardedCommands), commands: forwardedCommands },
    },
  };
  printTable(
    'Call latency (sequential calls, behind the same balancer)',
    ['side', 'p50', 'p95', 'n'],
    Object.entries({ ...modernLatency, ...legacyLatency }).map(([name, stats]) => [
      name,
      `${stats.p50.toFixed(2)} ms`,
      `${stats.p95.toFixed(2)} ms`,
      stats.n,
    ]),
  );
  printTable(
    `2026 throughput (${IN_FLIGHT} in flight, ${CLIENTS} clients)`,
    ['side', 'calls/s p50', 'min', 'max'],
    Object.entries(modernThroughput.rates).map(([name, stats]) => [
      name,
      stats.p50.toFixed(0),
      stats.min.toFixed(0),
      stats.max.toFixed(0),
    ]),
  );
  printTable(
    'Ratios',
    ['figure', 'value', 'goal'],
    [
      ['2026 p50, cluster / single', result.modern.latencyRatio?.toFixed(2), '≤ 1.10'],
      ['2026 calls/s, cluster / single', result.modern.throughputRatio?.toFixed(2), '≥ 0.90'],
      ['2025 p50, forwarded / owner-direct', result.legacy.forwardedRatio?.toFixed(2), '≤ 1.5'],
    ],
  );
  printTable(
    'Redis commands per call (heartbeats left out)',
    ['calls', 'per call', 'commands'],
    [
      ['2026', perCall(modernCommands).toFixed(2), JSON.stringify(modernCommands)],
      ['2025 owner-direct', perCall(directCommands).toFixed(2), JSON.stringify(directCommands)],
      ['2025 forwarded', perCall(forwardedCommands).toFixed(2), JSON.stringify(forwardedCommands)],
    ],
  );
  if (modernThroughput.failed > 0) console.log(`\n${modernThroughput.failed} calls failed`);
  console.log(`\nwrote ${writeResult('cluster', result)}`);
  for (const client of [...modernSingle.clients, ...modernCluster.clients, owned]) await client.close();
} finally {
  for (const each of started.reverse()) await each.stop().catch(() => {});
  dir.remove();
}
