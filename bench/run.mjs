// Entry point of `npm run bench`: `node bench/run.mjs [call|fanout|memory|search|gateway ...] [--quick]`.
// With no name it runs them all. `--quick` shrinks the hub benchmarks for a smoke run;
// `--sides=sdk,mcptools,…` picks the clients compared (default: sdk, sdk-auto, mcptools and
// the peers mcporter, mastra, langchain); `--minimal-server` makes the fan-out spawn the
// bare-Node echo server instead of the SDK one. Selecting points and sizes:
//   call:   --transports=stdio,http  --rounds=N
//   fanout: --points=1,5,10,20,5@500,10@500 (N servers, @ start delay in ms)  --repetitions=N
//   memory: --parts=import,first-connect,servers,calls  --servers=N  --calls=N  --repetitions=N  --no-jit
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCallBenchmark } from './call.mjs';
import { runFanOutBenchmark } from './fanout.mjs';
import { runGatewayBenchmark } from './gateway.mjs';
import { warnIfBusy } from './lib/report.mjs';
import { runMemoryBenchmark } from './memory.mjs';

const args = process.argv.slice(2);
// The gateways the benchmarks start serve this repository's echo fixtures unboxed, as the
// references they are compared with run them: serve's default box is measured apart
// (`node bench/run.mjs sandbox`). A variable set here reaches every bench's children.
process.env.MCPTOOLS_SERVE_SANDBOX ??= 'off';

const sidesFlag = args
  .find((arg) => arg.startsWith('--sides='))
  ?.slice('--sides='.length)
  .split(',');
/** `--name=value` of the command line, or undefined. */
const flag = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
/** `--name=a,b` as a list of positive integers, or undefined. */
const numbers = (name) => {
  const value = flag(name);
  if (value === undefined) return undefined;
  const list = value.split(',').map(Number);
  if (list.some((item) => !Number.isInteger(item) || item <= 0)) {
    console.error(`--${name}= takes positive integers separated by commas, not "${value}"`);
    process.exit(2);
  }
  return list;
};
const transportsFlag = flag('transports')?.split(',');
const roundsFlag = numbers('rounds')?.[0];
const repetitionsFlag = numbers('repetitions')?.[0];
/** `--points=10,20,5@500`: N servers, `@` start delay in ms (fan-out). */
const pointsFlag = flag('points')
  ?.split(',')
  .map((point) => {
    const [servers, delayMs = '0'] = point.split('@');
    const parsed = { servers: Number(servers), delayMs: Number(delayMs) };
    if (
      !Number.isInteger(parsed.servers) ||
      parsed.servers <= 0 ||
      !Number.isInteger(parsed.delayMs) ||
      parsed.delayMs < 0
    ) {
      console.error(`--points= takes N or N@delayMs separated by commas, not "${point}"`);
      process.exit(2);
    }
    return parsed;
  });
const partsFlag = flag('parts')?.split(',');
const BENCHMARKS = {
  call: (quick) =>
    runCallBenchmark({
      ...(quick ? { rounds: 3, perRound: 50, batch: 200, warmup: 50 } : {}),
      ...(roundsFlag ? { rounds: roundsFlag } : {}),
      ...(sidesFlag ? { sides: sidesFlag } : {}),
      ...(transportsFlag ? { transports: transportsFlag } : {}),
    }),
  fanout: (quick) =>
    runFanOutBenchmark({
      ...(quick
        ? {
            points: [
              { delayMs: 0, servers: 1 },
              { delayMs: 0, servers: 5 },
            ],
            repetitions: 1,
          }
        : {}),
      ...(pointsFlag ? { points: pointsFlag } : {}),
      ...(repetitionsFlag ? { repetitions: repetitionsFlag } : {}),
      ...(args.includes('--minimal-server') ? { server: 'minimal' } : {}),
      ...(sidesFlag ? { sides: sidesFlag } : {}),
    }),
  memory: (quick) =>
    runMemoryBenchmark({
      ...(quick ? { repetitions: 1, servers: 4, calls: 4000 } : {}),
      ...(repetitionsFlag ? { repetitions: repetitionsFlag } : {}),
      ...(numbers('servers') ? { servers: numbers('servers')[0] } : {}),
      ...(numbers('calls') ? { calls: numbers('calls')[0] } : {}),
      ...(partsFlag ? { parts: partsFlag } : {}),
      ...(args.includes('--no-jit') ? { jit: false } : {}),
    }),
  search: () => runSearchBenchmark(),
  gateway: (quick) =>
    runGatewayBenchmark(quick ? { rounds: 3, perRound: 30, warmup: 30, perBurst: 200 } : {}),
};

/** The tool-search benchmark (bench/search/, TypeScript) in its own process under tsx. */
function runSearchBenchmark() {
  const script = fileURLToPath(new URL('./search/run-search-bench.ts', import.meta.url));
  const suite = fileURLToPath(new URL('./data/', import.meta.url));
  if (!existsSync(script) || !existsSync(suite)) {
    console.log(`search benchmark skipped: ${existsSync(script) ? suite : script} not found`);
    return Promise.resolve();
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, script, '--suite', suite], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      if (code !== 0) {
        console.log(`search benchmark exited with code ${code}`);
        process.exitCode = 1;
      }
      resolve();
    });
  });
}

/**
 * Measurements that run as a script of their own, in a child process, with the arguments after
 * the name: `node bench/run.mjs heap-per-server 20 --marginal`. Not in the default run.
 */
const SCRIPTS = {
  'call-cpu': 'call-cpu.mjs',
  'heap-per-server': 'heap-per-server.mjs',
  'heap-per-tool': 'heap-per-tool.mjs',
  'event-store': 'event-store.mjs',
  'idle-sessions': 'idle-sessions.mjs',
  recursion: 'recursion-processes.mjs',
  'cli-start': 'cli-start.mjs',
  pipeline: 'pipeline.mjs',
  cluster: 'cluster.mjs',
  'request-state': 'request-state.mjs',
  'telemetry-cost': 'telemetry-cost.mjs',
  'telemetry-micro': 'telemetry-micro.mjs',
  'gateway-auth': 'gateway-auth.mjs',
  'code-mode': 'code-mode/run-code-mode-bench.ts',
  guard: 'guard.mjs',
  'profile-call': 'profile-call.mjs',
  'profile-stdio': 'profile-stdio-call.mjs',
  'profile-throughput': 'profile-throughput.mjs',
  sandbox: 'sandbox.mjs',
};
/** Scripts that import the TypeScript test harness (a real Redis and replicas), so run under tsx. */
const UNDER_TSX = new Set(['cluster', 'code-mode']);
if (args[0] in SCRIPTS) {
  const script = fileURLToPath(new URL(`./${SCRIPTS[args[0]]}`, import.meta.url));
  const loader = UNDER_TSX.has(args[0])
    ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
    : [];
  const child = spawn(process.execPath, [...loader, script, ...args.slice(1)], { stdio: 'inherit' });
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await runBenchmarks();
}

async function runBenchmarks() {
  const quick = args.includes('--quick');
  const names = args.filter((arg) => !arg.startsWith('--'));
  const unknown = names.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) {
    console.error(
      `unknown benchmark ${unknown.join(', ')}; choose from ${[...Object.keys(BENCHMARKS), ...Object.keys(SCRIPTS)].join(', ')}`,
    );
    process.exit(2);
  }

  const started = performance.now();
  console.log(`mcptools benchmarks — Node ${process.version}, ${new Date().toISOString()}`);
  for (const name of names.length > 0 ? names : Object.keys(BENCHMARKS)) {
    warnIfBusy();
    const benchmarkStart = performance.now();
    await BENCHMARKS[name](quick);
    console.log(`(${name}: ${((performance.now() - benchmarkStart) / 1000).toFixed(1)} s)`);
  }
  console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
