// Call overhead: one `tools/call` round trip through mcptools' `Tool.execute` versus the SDK's
// own `client.callTool`, to the same echo server, over stdio and Streamable HTTP, in both era
// negotiation modes. Rounds of the two sides are interleaved (and their order alternates) so
// machine noise lands on both; each call is timed on its own.

import { findTool, loadHub, loadMcptools, serverConfig } from './lib/mcptools-side.mjs';
import { format, printTable, writeResult } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand, settle, startHttpEcho } from './lib/servers.mjs';
import { ratio, summarize } from './lib/stats.mjs';

const SETUPS = [
  { transport: 'stdio', mode: 'auto' },
  { transport: 'stdio', mode: 'legacy' },
  { transport: 'http', mode: 'auto' },
  { transport: 'http', mode: 'legacy' },
];

/** Runs the call benchmark; `options.rounds`/`perRound` size it. Returns the result object. */
export async function runCallBenchmark(options = {}) {
  const rounds = options.rounds ?? 20;
  const perRound = options.perRound ?? 100;
  const warmup = options.warmup ?? 300;
  const lib = await loadMcptools();
  if (lib.unavailable) console.log(`mcptools side skipped: ${lib.unavailable}`);
  const results = [];
  for (const setup of SETUPS) {
    results.push(await measureSetup(setup, lib, { rounds, perRound, warmup }));
    await settle();
  }
  const rows = results.map((result) => [
    result.transport,
    result.mode,
    result.era.sdk,
    result.era.mcptools ?? '—',
    format.us(result.sdk.p50),
    format.us(result.mcptools?.p50),
    format.ratio(result.ratioP50),
    format.us(result.sdk.p95),
    format.us(result.mcptools?.p95),
    format.ratio(result.ratioP95),
  ]);
  printTable(
    `Call overhead: Tool.execute (mcptools) vs client.callTool (SDK-direct), ${rounds}×${perRound} calls per side, interleaved`,
    [
      'transport',
      'mode',
      'SDK era',
      'mcptools era',
      'SDK p50',
      'mcptools p50',
      'ratio p50',
      'SDK p95',
      'mcptools p95',
      'ratio p95',
    ],
    rows,
  );
  for (const result of results) {
    const { sdk, mcptools } = result.failedCalls;
    if (sdk + mcptools > 0) {
      console.log(
        `failed calls (not timed) in ${result.transport}/${result.mode}: SDK ${sdk}, mcptools ${mcptools}: ${JSON.stringify(result.firstFailures)}`,
      );
    }
  }
  const file = writeResult('call', {
    goal: 'mcptools p50 ≤ 1.10× SDK-direct p50',
    mcptoolsEntry: lib.entry ?? null,
    mcptoolsUnavailable: lib.unavailable ?? null,
    rounds,
    perRound,
    warmup,
    unit: 'ms',
    results,
  });
  console.log(`wrote ${file}`);
  return results;
}

async function measureSetup(setup, lib, { rounds, perRound, warmup }) {
  const http = setup.transport === 'http' ? await startHttpEcho() : undefined;
  const target = http ? { url: http.url } : { stdio: echoStdioCommand() };
  const sdk = await connectSdk({ ...target, mode: setup.mode });
  // Like the hub (and any real client), list the tools first: the SDK's callTool consults that
  // cached list on every call (output validator, x-mcp-header scan), so skipping it would flatter SDK-direct.
  await sdk.client.listTools();
  let hub;
  try {
    const sides = [
      { name: 'sdk', call: () => sdk.client.callTool({ name: 'echo', arguments: { text: 'hello' } }) },
    ];
    let mcptoolsEra;
    if (!lib.unavailable) {
      hub = await loadHub(lib, { echo: serverConfig({ ...target, mode: setup.mode }) }, 1);
      const tool = await findTool(hub.registry, 'echo', 'echo');
      mcptoolsEra = hub.provider.status('echo')?.era ?? null;
      let id = 0;
      sides.push({ name: 'mcptools', call: () => tool.execute(`bench-${id++}`, { text: 'hello' }) });
    }
    for (const side of sides) await checkEcho(side);
    for (let index = 0; index < warmup; index++) for (const side of sides) await side.call();
    const samples = Object.fromEntries(sides.map((side) => [side.name, []]));
    const failures = Object.fromEntries(sides.map((side) => [side.name, []]));
    // Client-process CPU per call, per round, kept in the JSON only: with both clients in one
    // process, work one side leaves behind (GC threads, finalizers) is charged to whichever side
    // runs next; separate-process profiles (bench/profile.mjs) are the reliable CPU comparison.
    const cpu = Object.fromEntries(sides.map((side) => [side.name, []]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const into = samples[side.name];
        const cpuStart = process.cpuUsage();
        for (let index = 0; index < perRound; index++) {
          const start = performance.now();
          const failure = await attempt(side);
          // A failed call measures the failure path, not a round trip: count it, do not time it.
          if (failure === undefined) into.push(performance.now() - start);
          else failures[side.name].push(failure);
        }
        const used = process.cpuUsage(cpuStart);
        cpu[side.name].push((used.user + used.system) / 1000 / perRound);
      }
    }
    const sdkStats = summarize(samples.sdk);
    const mcptoolsStats = samples.mcptools ? summarize(samples.mcptools) : null;
    const sdkCpu = summarize(cpu.sdk);
    const mcptoolsCpu = cpu.mcptools ? summarize(cpu.mcptools) : null;
    return {
      ...setup,
      era: { sdk: sdk.era, mcptools: mcptoolsEra },
      sdk: sdkStats,
      mcptools: mcptoolsStats,
      ratioP50: ratio(mcptoolsStats?.p50, sdkStats.p50),
      ratioP95: ratio(mcptoolsStats?.p95, sdkStats.p95),
      cpuPerCall: { sdk: sdkCpu, mcptools: mcptoolsCpu, ratioP50: ratio(mcptoolsCpu?.p50, sdkCpu.p50) },
      failedCalls: { sdk: failures.sdk.length, mcptools: failures.mcptools?.length ?? 0 },
      firstFailures: { sdk: failures.sdk.slice(0, 3), mcptools: failures.mcptools?.slice(0, 3) ?? [] },
    };
  } finally {
    await hub?.provider.close();
    await sdk.client.close();
    await http?.close();
  }
}

/** Runs one call; resolves undefined on success or a short description of the failure. */
async function attempt(side) {
  try {
    const result = await side.call();
    if (result?.isError) return String(result.content?.[0]?.text ?? 'isError').slice(0, 200);
    return undefined;
  } catch (error) {
    const cause = error?.cause?.code ? ` (${error.cause.code})` : '';
    return `${error instanceof Error ? error.message : String(error)}${cause}`.slice(0, 200);
  }
}

/** Fails loudly if a side does not really echo: a benchmark of error results measures nothing. */
async function checkEcho(side) {
  const result = await side.call();
  const text = result?.content?.[0]?.text;
  if (result?.isError || text !== 'hello') {
    throw new Error(`${side.name}: echo returned ${JSON.stringify(result).slice(0, 300)}`);
  }
}
