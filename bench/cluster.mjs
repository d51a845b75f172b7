// The cluster benchmark: what cluster mode costs a call. Run it after a build:
//
//   npm run build && node bench/run.mjs cluster [--quick]
//
// Everything sits behind the same test balancer (test/cluster/cluster-harness.ts, in this
// process), so its cost lands on every side alike:
// - 2026-07-28 calls: one single-process gateway vs a 2-replica cluster (round robin) on a private
//   redis-server, and two plain processes without --cluster (round robin): the cluster's own cost
//   apart from running two processes on this machine's cores. Latency: sequential calls, p50/p95.
//   Throughput: 50 calls in flight from 10 clients.
// - A 2025 session's calls: every request on its owner (direct) vs every request on the other
//   replica (forwarded to the owner), and, as the control, every request on the owner through a
//   bare HTTP hop in a process of its own (bench/lib/plain-hop.mjs): what one more process in the
//   path costs on this machine, whatever it does.
// - The event store's cost: a 2025 call with resumability on (Redis event store) vs off, and off
//   vs off again as the A/A control (gateways in processes of their own:
//   bench/lib/cluster-event-store.mjs).
// - Redis commands per call (INFO commandstats), the heartbeat's SETs left out.
// - Case 9: the retry of a call parked on a SIGKILLed replica, how soon it gets its -32602.
// Sides are interleaved in rotating rounds. Results: bench/results/cluster.json.
import { fileURLToPath } from 'node:url';
import {
  newClusterKey,
  scratchDir,
  startBalancer,
  startRedis,
  startReplica,
  writeConfig,
} from '../test/cluster/cluster-harness.ts';
import { fixtureCommand } from '../test/fixtures/spawn-http.ts';
import { eventStoreSides } from './lib/cluster-event-store.mjs';
import { commandsDuring, connect, latency, side, throughput } from './lib/cluster-load.mjs';
import { reissueAfterKill } from './lib/cluster-reissue.mjs';
import { startReadyChild } from './lib/ready-child.mjs';
import { printTable, writeResult } from './lib/report.mjs';
import { echoStdioCommand } from './lib/servers.mjs';
import { ratio } from './lib/stats.mjs';

// The SDK client's fetch leaves an abort listener per request on its transport's signal until
// the request is garbage-collected (none is left after a gc()); thousands of calls in a row
// outrun the collector, and Node's warning about it would bury the tables.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'MaxListenersExceededWarning') console.warn(warning);
});

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 6;
const PER_ROUND = quick ? 50 : 150;
const IN_FLIGHT = 50;
const PER_BURST = quick ? 300 : 1000;
const CLIENTS = 10;
const LOAD = { rounds: ROUNDS, perRound: PER_ROUND, inFlight: IN_FLIGHT, perBurst: PER_BURST };

const dir = scratchDir();
const started = [];
try {
  const redis = await startRedis(dir.path);
  started.push({ stop: () => redis.stop() });
  const config = writeConfig(dir.path, {
    echo: echoStdioCommand(),
    ask25: fixtureCommand('sampling', ['--era', 'legacy']),
  });
  const key = newClusterKey();
  const replica = (name) => startReplica({ name, config, redis: redis.url, key });
  const single = await startReplica({ name: 'single', config });
  const plain = await Promise.all(['p1', 'p2'].map((name) => startReplica({ name, config })));
  const replicas = await Promise.all(['a', 'b'].map(replica));
  started.push(single, ...plain, { stop: () => Promise.all(replicas.map((each) => each.stop())) });
  const singleLb = await startBalancer([single]);
  const plainLb = await startBalancer(plain);
  const clusterLb = await startBalancer(replicas);
  for (const lb of [singleLb, plainLb, clusterLb]) started.push({ stop: () => lb.close() });

  // 2026-07-28: single process vs 2-replica cluster, both behind the balancer.
  const modernSingle = side(
    '2026 · single process',
    await Promise.all(Array.from({ length: CLIENTS }, () => connect(singleLb.url, 'modern'))),
    [single.child.pid],
  );
  const modernCluster = side(
    '2026 · 2-replica cluster',
    await Promise.all(Array.from({ length: CLIENTS }, () => connect(clusterLb.url, 'modern'))),
    replicas.map((each) => each.child.pid),
  );
  const modernPlain = side(
    '2026 · 2 processes, no cluster',
    await Promise.all(Array.from({ length: CLIENTS }, () => connect(plainLb.url, 'modern'))),
    plain.map((each) => each.child.pid),
  );
  const modernSides = [modernSingle, modernCluster, modernPlain];
  const modernLatency = await latency(modernSides, LOAD);
  const modernThroughput = await throughput(modernSides, LOAD);

  // 2025: a session owned by A, its calls sent to A (direct), to B (forwarded), or to A through a
  // bare hop: the balancer's third target from now on (stopped with the replicas).
  const hop = await startReadyChild(fileURLToPath(new URL('./lib/plain-hop.mjs', import.meta.url)), [
    replicas[0].base,
  ]);
  replicas.push({ base: hop.url, stop: () => hop.stop() });
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
  const hopped = {
    name: '2025 · owner direct through a bare HTTP hop (control)',
    call: () => {
      clusterLb.route = () => 2;
      return owned.callTool({ name: 'echo__echo', arguments: { text: 'hello' } });
    },
  };
  const legacyLatency = await latency([direct, forwarded, hopped], LOAD);

  // The event store's cost: resumability on vs off, and the A/A control.
  const stores = await eventStoreSides(redis.url);
  started.push({ stop: () => stores.close() });
  // Three times the rounds: this figure's gap is small beside the machine's noise.
  const storeLatency = await latency(stores.sides, { ...LOAD, rounds: ROUNDS * 3 });
  const [storeOn, storeOff, storeControl] = stores.sides.map((each) => each.name);

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

  // Case 9: last, as it SIGKILLs replica A (restarted after each repetition).
  const reissue = await reissueAfterKill({
    balancer: clusterLb,
    replicas,
    restartA: () => replica('a'),
    repetitions: quick ? 2 : 5,
  });

  const p50 = (table, name) => table[name].p50;
  const rate = (name) => modernThroughput.rates[name].p50;
  const result = {
    modern: {
      latency: modernLatency,
      throughput: modernThroughput,
      latencyRatio: ratio(p50(modernLatency, modernCluster.name), p50(modernLatency, modernSingle.name)),
      throughputRatio: ratio(rate(modernCluster.name), rate(modernSingle.name)),
      // The cluster's own cost: the same two processes without --cluster.
      latencyRatioToPlain: ratio(
        p50(modernLatency, modernCluster.name),
        p50(modernLatency, modernPlain.name),
      ),
      throughputRatioToPlain: ratio(rate(modernCluster.name), rate(modernPlain.name)),
      cpuPerCallRatio: ratio(
        modernThroughput.cpuMsPerCall[modernCluster.name].p50,
        modernThroughput.cpuMsPerCall[modernSingle.name].p50,
      ),
    },
    legacy: {
      latency: legacyLatency,
      forwardedRatio: ratio(p50(legacyLatency, forwarded.name), p50(legacyLatency, direct.name)),
      bareHopRatio: ratio(p50(legacyLatency, hopped.name), p50(legacyLatency, direct.name)),
      forwardedToBareHop: ratio(p50(legacyLatency, forwarded.name), p50(legacyLatency, hopped.name)),
    },
    eventStore: {
      latency: storeLatency,
      ratio: ratio(p50(storeLatency, storeOn), p50(storeLatency, storeOff)),
      controlRatio: ratio(p50(storeLatency, storeControl), p50(storeLatency, storeOff)),
    },
    redisCommandsPerCall: {
      modern: { perCall: perCall(modernCommands), commands: modernCommands },
      legacyDirect: { perCall: perCall(directCommands), commands: directCommands },
      legacyForwarded: { perCall: perCall(forwardedCommands), commands: forwardedCommands },
    },
    reissueAfterKill: reissue,
    failedCalls: Object.fromEntries(modernSides.map((item) => [item.name, item.failures ?? []])),
  };
  const ms = (value) => `${value.toFixed(2)} ms`;
  printTable(
    'Call latency (sequential calls; 2026 and 2025 sessions behind the same balancer)',
    ['side', 'p50', 'p95', 'n'],
    Object.entries({ ...modernLatency, ...legacyLatency, ...storeLatency }).map(([name, stats]) => [
      name,
      ms(stats.p50),
      ms(stats.p95),
      stats.n,
    ]),
  );
  printTable(
    `2026 throughput (${IN_FLIGHT} in flight, ${CLIENTS} clients)`,
    ['side', 'calls/s p50', 'min', 'max', 'gateway CPU ms/call p50'],
    Object.entries(modernThroughput.rates).map(([name, stats]) => [
      name,
      stats.p50.toFixed(0),
      stats.min.toFixed(0),
      stats.max.toFixed(0),
      modernThroughput.cpuMsPerCall[name].p50.toFixed(3),
    ]),
  );
  const shown = (value) => value?.toFixed(2);
  printTable(
    'Ratios',
    ['figure', 'value', 'goal'],
    [
      ['2026 p50, cluster / single', shown(result.modern.latencyRatio), '≤ 1.10'],
      ['2026 calls/s, cluster / single', shown(result.modern.throughputRatio), '≥ 0.90'],
      ['2026 p50, cluster / 2 plain processes', shown(result.modern.latencyRatioToPlain), '—'],
      ['2026 calls/s, cluster / 2 plain processes', shown(result.modern.throughputRatioToPlain), '—'],
      ['2026 gateway CPU per call, cluster / single', shown(result.modern.cpuPerCallRatio), '—'],
      ['2025 p50, forwarded / owner-direct', shown(result.legacy.forwardedRatio), '≤ 1.5'],
      ['2025 p50, owner-direct through a bare hop / owner-direct', shown(result.legacy.bareHopRatio), '—'],
      ['2025 p50, forwarded / owner-direct through a bare hop', shown(result.legacy.forwardedToBareHop), '—'],
      ['2025 p50, resumability on / off', shown(result.eventStore.ratio), '≤ 1.15'],
      ['2025 p50, resumability off again / off (A/A control)', shown(result.eventStore.controlRatio), '—'],
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
  printTable(
    'A retry of a call parked on a SIGKILLed replica, sent to another (case 9)',
    ['p50', 'max', 'n', 'answered with'],
    [[ms(reissue.p50), ms(reissue.max), reissue.n, reissue.outcomes.join(', ')]],
  );
  for (const item of modernSides)
    if (item.failures?.length > 0)
      console.log(`\n${item.name}: ${item.failures.length} calls failed, first: ${item.failures[0]}`);
  console.log(`\nwrote ${writeResult('cluster', result)}`);
  for (const each of [...modernSides.flatMap((item) => item.clients), owned]) await each.close();
} finally {
  for (const each of started.reverse()) await each.stop().catch(() => {});
  dir.remove();
}
