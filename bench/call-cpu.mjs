// Client CPU per call, in process: the SDK client in its default mode and mcptools, both in
// this one process against the same echo server (its own process, so its CPU is not counted),
// rounds interleaved and the order rotated each round. CPU time is what the client itself
// spends on a call, so it varies far less with machine load than wall-clock latency does.
//   node bench/call-cpu.mjs [stdio|http] [--rounds=N] [--calls=N] [--in-flight=N] [--sides=sdk,mcptools]
// Each round runs `calls` sequential calls per side, then `calls` calls with `in-flight` at
// once; reported: CPU µs per call (median over rounds), wall p50 of the sequential calls, and
// the ratio mcptools ÷ SDK per round (median), and the client's write system calls per call with
// `in-flight` at once (Linux `/proc/self/io`; a count, so load does not move it); over stdio
// also the CPU per call, with `in-flight` at once, of the echo server each side spawned (from
// /proc in 10 ms ticks: use a few thousand calls per round).
import { readFileSync } from 'node:fs';
import { childPids, cpuUsOf } from './lib/proc-cpu.mjs';
import { format, printTable } from './lib/report.mjs';
import { echoStdioCommand, startHttpEcho } from './lib/servers.mjs';
import { loadSides, rotated } from './lib/sides.mjs';
import { quantile } from './lib/stats.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
};
const transport = args.find((arg) => !arg.startsWith('--')) ?? 'http';
const rounds = Number(flag('rounds', 8));
const calls = Number(flag('calls', 500));
const inFlight = Number(flag('in-flight', 50));
const names = flag('sides', 'sdk,mcptools').split(',');

/** Write system calls of this process so far (`syscw` of /proc/self/io), or NaN off Linux. */
const writeCalls = () => {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
};

const { sides, skipped } = await loadSides(names);
for (const [name, reason] of Object.entries(skipped)) console.log(`${name} skipped: ${reason}`);
const http = transport === 'http' ? await startHttpEcho() : undefined;
const target = http ? { url: http.url } : { stdio: echoStdioCommand() };
const open = [];
try {
  for (const side of sides) {
    const before = childPids();
    const handle = await side.open([target]);
    // Over stdio each side spawned its own echo server: its CPU per call is shown too.
    const server = http ? undefined : [...childPids()].find((pid) => !before.has(pid));
    open.push({ side, handle, server });
  }
  for (const { handle } of open) for (let index = 0; index < 300; index++) await handle.call(0, 'hello');
  const series = new Map(
    open.map(({ side }) => [
      side.name,
      { seqCpu: [], seqWall: [], poolCpu: [], poolWrites: [], serverCpu: [] },
    ]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const { side, handle, server } of rotated(open, round)) {
      const own = series.get(side.name);
      const wall = [];
      let cpu = process.cpuUsage();
      for (let index = 0; index < calls; index++) {
        const start = performance.now();
        await handle.call(0, 'hello');
        wall.push(performance.now() - start);
      }
      cpu = process.cpuUsage(cpu);
      own.seqCpu.push((cpu.user + cpu.system) / calls);
      own.seqWall.push(quantile(wall, 0.5));
      cpu = process.cpuUsage();
      const writesBefore = writeCalls();
      const serverBefore = server === undefined ? Number.NaN : cpuUsOf(server);
      let started = 0;
      const worker = async () => {
        while (started < calls) {
          started++;
          await handle.call(0, 'hello');
        }
      };
      await Promise.all(Array.from({ length: inFlight }, worker));
      cpu = process.cpuUsage(cpu);
      own.poolCpu.push((cpu.user + cpu.system) / calls);
      own.poolWrites.push((writeCalls() - writesBefore) / calls);
      own.serverCpu.push(server === undefined ? Number.NaN : (cpuUsOf(server) - serverBefore) / calls);
    }
  }
  const reference = series.get(names[0]);
  const ratio = (own, base) =>
    quantile(
      own.map((value, index) => value / base[index]),
      0.5,
    );
  printTable(
    `Client CPU per call over ${transport} (${rounds} rounds × ${calls} calls; medians over rounds; ratios ÷ ${names[0]})`,
    [
      'side',
      'seq CPU/call',
      'ratio',
      `${inFlight}-in-flight CPU/call`,
      'ratio',
      'writes/call',
      'server CPU/call',
      'seq wall p50',
      'ratio',
    ],
    [...series].map(([name, own]) => [
      name,
      `${quantile(own.seqCpu, 0.5).toFixed(0)} µs`,
      format.ratio(ratio(own.seqCpu, reference.seqCpu)),
      `${quantile(own.poolCpu, 0.5).toFixed(0)} µs`,
      format.ratio(ratio(own.poolCpu, reference.poolCpu)),
      quantile(own.poolWrites, 0.5).toFixed(2),
      Number.isNaN(own.serverCpu[0]) ? '—' : `${quantile(own.serverCpu, 0.5).toFixed(0)} µs`,
      format.us(quantile(own.seqWall, 0.5)),
      format.ratio(ratio(own.seqWall, reference.seqWall)),
    ]),
  );
} finally {
  for (const { handle } of open) await handle.close().catch(() => {});
  await http?.close();
}
