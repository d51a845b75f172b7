// Fan-out: wall time until N stdio servers are all connected and their tools listed —
// mcptools' `loadMCPServers` versus SDK-direct `Promise.all(connect + listTools)` — for fast
// servers and for servers that take 500 ms to start. Repetitions alternate which side goes
// first; every client is closed and its children given time to exit before the next timing.

import { loadHub, loadMcptools, serverConfig } from './lib/mcptools-side.mjs';
import { format, printTable, writeResult } from './lib/report.mjs';
import { closeSdkClients, fanOutSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand, minimalEchoStdioCommand, settle } from './lib/servers.mjs';
import { ratio, summarize } from './lib/stats.mjs';

/**
 * Runs the fan-out benchmark; `options.sizes`, `delays`, `repetitions`, `mode` size it, and
 * `server` picks the spawned server: `minimal` (default, bare Node, 2025 era) or `sdk`.
 */
export async function runFanOutBenchmark(options = {}) {
  const sizes = options.sizes ?? [1, 5, 10, 20];
  const delays = options.delays ?? [0, 500];
  // Slow-start points are dominated by the sleep and vary less: fewer repetitions keep the run short.
  const repetitionsFor = (delay) => options.repetitions ?? (delay > 0 ? 3 : 5);
  const mode = options.mode ?? 'auto';
  const server = options.server ?? 'minimal';
  const launch = server === 'sdk' ? echoStdioCommand : minimalEchoStdioCommand;
  const commandsFor = (size, delay) => {
    const args = delay > 0 ? ['--start-delay-ms', String(delay)] : [];
    return Array.from({ length: size }, () => launch(args));
  };
  const lib = await loadMcptools();
  if (lib.unavailable) console.log(`mcptools side skipped: ${lib.unavailable}`);

  // One untimed pass at N = 1 loads and JIT-warms both client stacks.
  await timeSdk(commandsFor(1, 0), mode);
  if (!lib.unavailable) await timeMcptools(lib, commandsFor(1, 0), mode);
  await settle(300);

  const results = [];
  for (const delay of delays) {
    for (const size of sizes) {
      const commands = commandsFor(size, delay);
      const samples = { sdk: [], mcptools: [] };
      for (let repetition = 0; repetition < repetitionsFor(delay); repetition++) {
        const sides = lib.unavailable ? ['sdk'] : ['sdk', 'mcptools'];
        for (const side of repetition % 2 === 0 ? sides : sides.reverse()) {
          const elapsed =
            side === 'sdk' ? await timeSdk(commands, mode) : await timeMcptools(lib, commands, mode);
          samples[side].push(elapsed);
          await settle(200);
        }
      }
      const sdk = summarize(samples.sdk);
      const mcptools = samples.mcptools.length > 0 ? summarize(samples.mcptools) : null;
      results.push({
        delayMs: delay,
        servers: size,
        sdk,
        mcptools,
        ratioP50: ratio(mcptools?.p50, sdk.p50),
        samples,
      });
    }
  }

  printTable(
    `Fan-out: N stdio servers (${server} echo server) connected + listed (mode ${mode}), median of ${repetitionsFor(0)} (${repetitionsFor(500)} when slow), alternating order`,
    ['start delay', 'N', 'SDK p50', 'mcptools p50', 'ratio p50', 'SDK max', 'mcptools max'],
    results.map((result) => [
      `${result.delayMs} ms`,
      result.servers,
      format.ms(result.sdk.p50),
      format.ms(result.mcptools?.p50),
      format.ratio(result.ratioP50),
      format.ms(result.sdk.max),
      format.ms(result.mcptools?.max),
    ]),
  );
  const file = writeResult(server === 'sdk' ? 'fanout-sdk-server' : 'fanout', {
    goal: 'mcptools ≤ 1.10× SDK-direct Promise.all at N = 20',
    mode,
    server,
    repetitions: { fast: repetitionsFor(0), slow: repetitionsFor(500) },
    mcptoolsEntry: lib.entry ?? null,
    mcptoolsUnavailable: lib.unavailable ?? null,
    unit: 'ms',
    results,
  });
  console.log(`wrote ${file}`);
  return results;
}

async function timeSdk(commands, mode) {
  const start = performance.now();
  const clients = await fanOutSdk(commands, mode);
  const elapsed = performance.now() - start;
  await closeSdkClients(clients);
  return elapsed;
}

async function timeMcptools(lib, commands, mode) {
  const servers = Object.fromEntries(
    commands.map((stdio, index) => [`echo${index + 1}`, serverConfig({ stdio, mode })]),
  );
  const start = performance.now();
  const { provider } = await loadHub(lib, servers, commands.length);
  const elapsed = performance.now() - start;
  await provider.close();
  return elapsed;
}
