// The floor under the gateway's throughput goals (issue 10): the CPU per call of the SDK's own
// client and of the bench echo server (an SDK server), each over stdio and over HTTP, 50 calls in
// flight, no mcptools anywhere. A gateway serves every call with at least one SDK server
// (downstream face) and one SDK client (upstream), so
//   gateway CPU/call ≥ server(downstream transport) + client(stdio)
// Calls per second are bounded twice: by the machine (cores ÷ the CPU per call of every process
// together) and by the busiest process (one JavaScript thread: 1 ÷ its CPU per call). The
// ratio printed is the gateway's bound over the direct one, with c/s the client/server CPU per
// call over HTTP (H) or stdio (S) and G the gateway's:
//   direct:        min(cores ÷ (c + s), 1 ÷ max(c, s))
//   through it:    min(cores ÷ (c + G + sS), 1 ÷ max(c, G, sS ÷ 5))   (5 upstreams share the calls)
// Pass the gateway's measured CPU per call as --gateway-http=µs / --gateway-stdio=µs to see the
// ratio it allows, or --with-gateway to measure it in the same run: each round then also runs
// `bench/profile-gateway.mjs <http|stdio> <calls> --cpu-only` (the built CLI, or MCPTOOLS_CLI).
//   node bench/gateway-floor.mjs [--rounds=N] [--calls=N] [--legacy] [--with-gateway] [--gateway-http=µs] [--gateway-stdio=µs]
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { childPids, cpuUsOf } from './lib/proc-cpu.mjs';
import { format, printTable } from './lib/report.mjs';
import { connectSdk } from './lib/sdk-side.mjs';
import { echoStdioCommand, startHttpEcho } from './lib/servers.mjs';
import { quantile } from './lib/stats.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
};
const rounds = Number(flag('rounds', 5));
const calls = Number(flag('calls', 3000));
const IN_FLIGHT = 50;
const mode = args.includes('--legacy') ? 'legacy' : 'auto';
const withGateway = args.includes('--with-gateway');
const PROFILE_GATEWAY = fileURLToPath(new URL('./profile-gateway.mjs', import.meta.url));
const gatewaySeries = { http: [], stdio: [] };
/** The gateway's own CPU per call (µs), from a `profile-gateway.mjs --cpu-only` run. */
const gatewayCpu = (face) => {
  const out = execFileSync(
    process.execPath,
    [PROFILE_GATEWAY, face, String(calls), '--cpu-only', ...(mode === 'legacy' ? ['--legacy'] : [])],
    { encoding: 'utf8' },
  );
  const match = /gateway process CPU ([\d.]+) (µs|ms)/.exec(out);
  if (match === null) throw new Error(`no CPU figure in: ${out}`);
  return Number(match[1]) * (match[2] === 'ms' ? 1000 : 1);
};
const gateway = {
  http: Number(flag('gateway-http', Number.NaN)),
  stdio: Number(flag('gateway-stdio', Number.NaN)),
};

const http = await startHttpEcho();
const before = childPids();
const sides = {
  stdio: { ...(await connectSdk({ stdio: echoStdioCommand(), mode })), pid: undefined },
  http: { ...(await connectSdk({ url: http.url, mode })), pid: http.pid },
};
sides.stdio.pid = [...childPids()].find((pid) => !before.has(pid) && pid !== http.pid);
const series = { stdio: { client: [], server: [] }, http: { client: [], server: [] } };
try {
  const burst = async (client, total) => {
    let started = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (started < total) {
          started++;
          await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
        }
      }),
    );
  };
  for (const side of Object.values(sides)) await burst(side.client, 500);
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? ['stdio', 'http'] : ['http', 'stdio']) {
      const { client, pid } = sides[name];
      const serverBefore = cpuUsOf(pid);
      const cpu = process.cpuUsage();
      await burst(client, calls);
      const used = process.cpuUsage(cpu);
      series[name].client.push((used.user + used.system) / calls);
      series[name].server.push((cpuUsOf(pid) - serverBefore) / calls);
    }
    if (withGateway) for (const face of ['http', 'stdio']) gatewaySeries[face].push(gatewayCpu(face));
  }
} finally {
  for (const side of Object.values(sides)) await side.client.close().catch(() => {});
  await http.close();
}

const median = (values) => quantile(values, 0.5);
const c = { stdio: median(series.stdio.client), http: median(series.http.client) };
const s = { stdio: median(series.stdio.server), http: median(series.http.server) };
const us = (value) => (Number.isNaN(value) ? '—' : `${value.toFixed(0)} µs`);
printTable(
  `SDK client and SDK echo server, CPU per call with ${IN_FLIGHT} in flight (${mode} era negotiation; ${rounds} rounds × ${calls} calls, medians)`,
  ['transport', 'client', 'server', 'client + server'],
  ['stdio', 'http'].map((name) => [name, us(c[name]), us(s[name]), us(c[name] + s[name])]),
);
if (withGateway) {
  gateway.http = median(gatewaySeries.http);
  gateway.stdio = median(gatewaySeries.stdio);
}
const floor = { http: s.http + c.stdio, stdio: s.stdio + c.stdio };
const CORES = cpus().length;
/** Calls per second (per µs) the processes allow: the machine's cores, and the busiest process. */
const throughput = (perProcess) =>
  Math.min(CORES / perProcess.reduce((sum, us) => sum + us, 0), 1 / Math.max(...perProcess));
const bound = (face, gatewayUs) =>
  throughput([c[face], gatewayUs, ...Array(5).fill(s.stdio / 5)]) / throughput([c[face], s[face]]);
printTable(
  `The gateway’s floor and the throughput ratio (÷ direct) its CPU allows on ${CORES} cores`,
  ['serve', 'floor: server + client(stdio)', 'ratio at the floor', 'gateway measured', 'ratio at measured'],
  ['http', 'stdio'].map((face) => [
    `--${face}`,
    us(floor[face]),
    format.ratio(bound(face, floor[face])),
    us(gateway[face]),
    Number.isNaN(gateway[face]) ? '—' : format.ratio(bound(face, gateway[face])),
  ]),
);
