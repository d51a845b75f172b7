// One library gateway of a build (`--dist=DIR`, default this tree's dist/) over the bench echo
// server (stdio, upstream `e0` in the 2025 era and `m0` in 2026-07-28), for the call profile
// (bench/profile-call.mjs). `--store=off` keeps no events (`eventStore: false`);
// `--telemetry=on` sets up the CLI's telemetry (traces sampled at 100% over OTLP/HTTP to
// `--otlp=URL`, metrics on the Prometheus reader); `--policies` applies the example of
// docs/tool-policies.md to the echo server. Prints `ready <url>`; then answers stdin lines:
// `start` (CPU profiler and allocation sampling on, CPU time zeroed), `stop <file>` (the CPU
// profile written to <file>, the allocations beside it as `.heapprofile`; prints `cpu <µs>`).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { echoStdioCommand } from './servers.mjs';

const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
const dist = pathToFileURL(
  `${(flag('dist') ?? new URL('../../dist', import.meta.url).pathname).replace(/\/$/, '')}/`,
);
if (flag('telemetry') === 'on') {
  const { setupTelemetry } = await import(new URL('telemetry/setup-telemetry.js', dist).href);
  await setupTelemetry(undefined, {
    prometheus: true,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: flag('otlp'),
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_METRICS_EXPORTER: 'none',
    },
  });
}
const { loadMcpServers, ToolRegistry } = await import(new URL('index.js', dist).href);
const { createGateway, gatewayServerRequests } = await import(new URL('gateway.js', dist).href);
const policies = {
  deny: [{ match: { tools: ['*__delete_repo'] }, reason: 'Deleting repositories is not allowed' }],
  requireApproval: [{ match: { annotations: ['destructiveHint'] }, reason: 'This changes data' }],
  overrides: { e1: { echo: { description: 'Echo, overridden' } } },
  rateLimits: [{ match: { servers: ['e0', 'm0'] }, per: 'server', limit: 1e9, windowMs: 60000 }],
  audit: { file: join(tmpdir(), `mcptools-profile-audit-${process.pid}.jsonl`), maxBytes: 10485760, keep: 1 },
};
const config = {
  servers: {
    e0: { type: 'stdio', ...echoStdioCommand() },
    e1: { type: 'stdio', ...echoStdioCommand() },
    m0: { type: 'stdio', ...echoStdioCommand(), protocol: '2026-07-28-first' },
  },
  ...(process.argv.includes('--policies') ? { policies } : {}),
};
const registry = new ToolRegistry();
const hub = await loadMcpServers(config, registry, gatewayServerRequests());
const gateway = createGateway({
  registry,
  hub,
  config,
  ...(flag('store') === 'off' ? { eventStore: false } : {}),
});
const { url } = await gateway.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`ready ${url}\n`);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('HeapProfiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: Number(flag('interval') ?? 50) });
let cpu;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'start') {
    // Allocations too: sampled every 128 bytes, the collected ones kept (what a call allocates,
    // not what survives it); a count, so the machine's load does not move it.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await session.post('Profiler.start');
    cpu = process.cpuUsage();
    process.stdout.write('started\n');
  } else if (line.startsWith('stop ')) {
    const used = process.cpuUsage(cpu);
    const { profile } = await session.post('Profiler.stop');
    const { profile: allocations } = await session.post('HeapProfiler.getSamplingProfile');
    await session.post('HeapProfiler.stopSampling');
    writeFileSync(line.slice(5), JSON.stringify(profile));
    writeFileSync(line.slice(5).replace(/\.cpuprofile$/, '.heapprofile'), JSON.stringify(allocations));
    process.stdout.write(`cpu ${used.user + used.system}\n`);
  } else break;
}
await gateway.close();
await hub.close();
process.exit(0);
