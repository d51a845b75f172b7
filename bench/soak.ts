// The gateway soak: `mcptools serve --http` (the built CLI, its own process) in
// front of 5 upstream echo servers over stdio, driven by 10 downstream SDK client sessions
// (5 in each protocol era, 5 calls in flight each), after a warm-up of 10% of the calls, while
// one upstream after another is killed
// (SIGKILL) every few seconds and the gateway restarts it with backoff.
//
//   npm run soak                     # build, then 100,000 calls (time limit 20 minutes)
//   npm run soak -- --quick          # 5,000 calls, a kill every second (time limit 3 minutes)
//   node --import tsx bench/soak.ts --calls N --time-limit-s S --kill-every-ms MS
//
// It checks, and exits 1 when one fails: every call is answered; only calls to an upstream
// while it is down (from its kill until its first success after) fail; the gateway's RSS at
// the end is under 120% of its RSS after the warm-up; its open file descriptors and child
// processes at the end are back to the start; after SIGTERM it exits 0 and no upstream
// survives. Prints the figures and writes bench/results/soak.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { childPids, cliBin, isAlive, survivors } from '../test/cli/cli-process.js';
import { mib, openFds, rssBytes } from './lib/process-stats.js';

const ECHO = fileURLToPath(new URL('./servers/echo-server.mjs', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const UPSTREAMS = 5;
const SESSIONS = 10;
const IN_FLIGHT_PER_SESSION = 5;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}
const quick = process.argv.includes('--quick');
const totalCalls = Number(flag('calls') ?? (quick ? 5_000 : 100_000));
const timeLimitMs = Number(flag('time-limit-s') ?? (quick ? 180 : 1200)) * 1000;
const killEveryMs = Number(flag('kill-every-ms') ?? (quick ? 1000 : 3000));
for (const [name, value] of Object.entries({ totalCalls, timeLimitMs, killEveryMs }))
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, not ${value}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const name = (index: number) => `s${index}`;

/** Starts `mcptools serve --http 127.0.0.1:0` and resolves with its URL once it listens. */
function startGateway(config: string): Promise<{ child: ChildProcess; url: string; stderr(): string }> {
  const child = spawn(process.execPath, [cliBin, 'serve', '--http', '127.0.0.1:0', '--config', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      // Keep the start and the last 64 KiB (every kill is logged).
      stderr =
        stderr.length > 131_072 ? stderr.slice(0, 4096) + stderr.slice(-65_536) + chunk : stderr + chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve({ child, url: match[1], stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`mcptools serve exited with ${code}:\n${stderr}`)));
  });
}

/** The upstream child PID serving `server` (its command line carries `--soak-name <server>`). */
async function upstreamPid(gatewayPid: number, server: string): Promise<number | undefined> {
  const { readFileSync } = await import('node:fs');
  for (const pid of childPids(gatewayPid)) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args[args.indexOf('--soak-name') + 1] === server && isAlive(pid)) return pid;
    } catch {}
  }
  return undefined;
}

async function allConnected(healthz: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const health = (await (await fetch(healthz)).json()) as { servers: { state: string }[] };
    if (health.servers.length === UPSTREAMS && health.servers.every((server) => server.state === 'connected'))
      return;
    if (Date.now() > until) throw new Error(`not every upstream connected: ${JSON.stringify(health)}`);
    await sleep(100);
  }
}

interface Failure {
  server: string;
  kind: string;
  startedAt: number;
  endedAt: number;
}

interface Kill {
  server: string;
  pid: number;
  at: number;
  /** When the first call to it after the kill succeeded. */
  recoveredAt?: number;
}

const dir = mkdtempSync(join(tmpdir(), 'mcptools-soak-'));
const config = join(dir, 'mcptools.json');
writeFileSync(
  config,
  JSON.stringify({
    servers: Object.fromEntries(
      Array.from({ length: UPSTREAMS }, (_, index) => [
        name(index),
        { command: process.execPath, args: [ECHO, '--soak-name', name(index)] },
      ]),
    ),
  }),
);

const gateway = await startGateway(config);
const gatewayPid = gateway.child.pid!;
const healthz = gateway.url.replace(/\/mcp$/, '/healthz');
const checks: { what: string; ok: boolean }[] = [];
const clients: Client[] = [];
try {
  await allConnected(healthz);
  for (let index = 0; index < SESSIONS; index++) {
    const modern = index % 2 === 0;
    const client = new Client(
      { name: `soak-${index}`, version: '1.0.0' },
      modern ? { versionNegotiation: { mode: 'auto' as const } } : {},
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    clients.push(client);
  }

  const failures: Failure[] = [];
  const kills: Kill[] = [];
  let succeeded = 0;

  /** Runs `count` calls from every session, IN_FLIGHT_PER_SESSION at a time; stops at `deadline`. */
  async function drive(count: number, deadline: number, record: boolean): Promise<number> {
    let issued = 0;
    const loop = async (client: Client) => {
      while (issued < count && Date.now() < deadline) {
        const index = issued++;
        const server = name(index % UPSTREAMS);
        const text = `call ${index}`;
        const startedAt = Date.now();
        let kind: string | undefined;
        try {
          const result = (await client.callTool({ name: `${server}__echo`, arguments: { text } })) as {
            isError?: boolean;
            content: { type: string; text?: string }[];
          };
          const answer = result.content.map((block) => block.text ?? '').join('');
          if (result.isError) kind = `isError: ${answer}`;
          else if (answer !== text) kind = `wrong result: ${answer.slice(0, 80)}`;
        } catch (error) {
          const cause =
            error instanceof Error
              ? (error.cause as { code?: string; message?: string } | undefined)
              : undefined;
          kind = `thrown: ${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
        }
        if (!record) continue;
        const endedAt = Date.now();
        if (kind === undefined) {
          succeeded++;
          const kill = kills.findLast((entry) => entry.server === server);
          if (kill && kill.recoveredAt === undefined && startedAt > kill.at) kill.recoveredAt = endedAt;
        } else failures.push({ server, kind: kind.replace(/\d+/g, 'N').slice(0, 120), startedAt, endedAt });
      }
    };
    await Promise.all(
      clients.flatMap((client) => Array.from({ length: IN_FLIGHT_PER_SESSION }, () => loop(client))),
    );
    return issued;
  }

  // The start figures are taken once the gateway has reached its working size: after 10% of
  // the calls again as a warm-up (at least 2,000).
  await drive(Math.max(2_000, Math.round(totalCalls / 10)), Date.now() + timeLimitMs, false);
  const startedAt = Date.now();
  const start = {
    rss: rssBytes(gatewayPid)!,
    fds: openFds(gatewayPid),
    children: childPids(gatewayPid).length,
  };
  let peakRss = start.rss;
  // RSS over time (every 10 s), to tell a plateau from a leak.
  const rssSeries: [number, number][] = [];
  let tick = 0;
  const sampler = setInterval(() => {
    const rss = rssBytes(gatewayPid) ?? 0;
    peakRss = Math.max(peakRss, rss);
    if (tick++ % 10 === 0) rssSeries.push([Math.round((Date.now() - startedAt) / 1000), Number(mib(rss))]);
  }, 1000);

  // The killer: every killEveryMs, SIGKILL the next upstream, once the previous one is back.
  let running = true;
  const killer = (async () => {
    let next = 0;
    while (running) {
      await sleep(killEveryMs);
      if (!running) break;
      const last = kills.at(-1);
      if (last && last.recoveredAt === undefined) continue;
      const server = name(next++ % UPSTREAMS);
      const pid = await upstreamPid(gatewayPid, server);
      if (pid === undefined) continue;
      kills.push({ server, pid, at: Date.now() });
      process.kill(pid, 'SIGKILL');
    }
  })();

  const issued = await drive(totalCalls, startedAt + timeLimitMs, true);
  const elapsedMs = Date.now() - startedAt;
  running = false;
  await killer;
  clearInterval(sampler);
  await allConnected(healthz);
  await sleep(2000);
  const end = {
    rss: rssBytes(gatewayPid)!,
    fds: openFds(gatewayPid),
    children: childPids(gatewayPid).length,
  };
  peakRss = Math.max(peakRss, end.rss);

  // A failure is allowed only for a call to an upstream while it was down: it ended after a
  // kill of its server and started before that server's first success after the kill (+1 s).
  const allowed = (failure: Failure) =>
    kills.some(
      (kill) =>
        kill.server === failure.server &&
        failure.endedAt >= kill.at &&
        failure.startedAt <= (kill.recoveredAt ?? Number.POSITIVE_INFINITY) + 1000,
    );
  const disallowed = failures.filter((failure) => !allowed(failure));
  const byKind = new Map<string, number>();
  for (const failure of failures) byKind.set(failure.kind, (byKind.get(failure.kind) ?? 0) + 1);
  const downtimes = kills
    .filter((kill) => kill.recoveredAt !== undefined)
    .map((kill) => kill.recoveredAt! - kill.at)
    .sort((a, b) => a - b);

  // Shut down: SIGTERM, exit 0, no upstream left.
  const upstreams = childPids(gatewayPid);
  for (const client of clients) await client.close().catch(() => {});
  clients.length = 0;
  const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
  gateway.child.kill('SIGTERM');
  const exitCode = await Promise.race([exited, sleep(15_000).then(() => 'hung' as const)]);
  const left = await survivors(upstreams, 5_000);

  const growth = end.rss / start.rss - 1;
  checks.push(
    {
      what: `every call answered (${issued} of ${totalCalls} issued within the time limit)`,
      ok: issued === totalCalls,
    },
    {
      what: `only calls to a killed upstream while it was down failed (${disallowed.length} others)`,
      ok: disallowed.length === 0,
    },
    { what: `RSS growth under 20% (${(growth * 100).toFixed(1)}%)`, ok: growth < 0.2 },
    { what: `open fds back to the start (${start.fds} → ${end.fds})`, ok: end.fds <= start.fds },
    {
      what: `child processes back to the start (${start.children} → ${end.children})`,
      ok: end.children === start.children,
    },
    {
      what: `SIGTERM: exit code ${exitCode}, ${left.length} upstream(s) left`,
      ok: exitCode === 0 && left.length === 0,
    },
  );

  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
    command: process.argv.slice(2).join(' ') || '(defaults)',
    upstreams: UPSTREAMS,
    sessions: `${SESSIONS} (${SESSIONS / 2} 2026-07-28, ${SESSIONS / 2} 2025-era), ${IN_FLIGHT_PER_SESSION} calls in flight each`,
    calls: issued,
    succeeded,
    failed: failures.length,
    seconds: Number((elapsedMs / 1000).toFixed(1)),
    callsPerSecond: Math.round((issued / elapsedMs) * 1000),
    kills: kills.length,
    downtimeMs: downtimes.length
      ? { min: downtimes[0], median: downtimes[Math.floor(downtimes.length / 2)], max: downtimes.at(-1) }
      : undefined,
    failuresByKind: Object.fromEntries([...byKind].sort((a, b) => b[1] - a[1])),
    disallowedFailures: disallowed.slice(0, 20),
    gatewayRssMiB: { start: Number(mib(start.rss)), end: Number(mib(end.rss)), peak: Number(mib(peakRss)) },
    gatewayRssMiBEvery10s: rssSeries,
    openFds: { start: start.fds, end: end.fds },
    childProcesses: { start: start.children, end: end.children },
    checks,
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, quick ? 'soak-quick.json' : 'soak.json'),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  console.log(
    [
      `soak: ${summary.calls} calls in ${summary.seconds} s = ${summary.callsPerSecond} calls/s through mcptools serve --http`,
      `  ${UPSTREAMS} stdio upstreams, ${summary.sessions}; load average ${summary.loadAverage.join(' ')} on ${summary.cpus} CPUs, Node ${summary.node}`,
      `  ${summary.kills} upstreams killed (SIGKILL, one every ${killEveryMs} ms once the last is back); down (kill → first success) ms: ${JSON.stringify(summary.downtimeMs)}`,
      `  succeeded ${succeeded}, failed ${failures.length}: ${JSON.stringify(summary.failuresByKind)}`,
      `  gateway RSS ${summary.gatewayRssMiB.start} MiB after warm-up → ${summary.gatewayRssMiB.end} MiB at the end (peak ${summary.gatewayRssMiB.peak} MiB)`,
      `  RSS MiB every 10 s: ${rssSeries.map(([, value]) => value).join(' ')}`,
      `  open fds ${start.fds} → ${end.fds}; child processes ${start.children} → ${end.children}`,
      ...checks.map((check) => `  ${check.ok ? 'ok  ' : 'FAIL'} ${check.what}`),
    ].join('\n'),
  );
  if (disallowed.length > 0)
    console.log('disallowed failures (first 20):', JSON.stringify(disallowed.slice(0, 20)));
} finally {
  for (const client of clients) await client.close().catch(() => {});
  if (gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = checks.length > 0 && checks.every((check) => check.ok) ? 0 : 1;
