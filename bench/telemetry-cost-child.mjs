// One side of bench/telemetry-cost.mjs: a hub (`loadMcpServers` from `--dist`) over the bench
// echo server (stdio), telemetry off or on (`--mode=on`: the CLI's own SDK setup, traces
// sampled at 100% over OTLP/HTTP to `--otlp`, metrics on the Prometheus reader). It answers each
// `run N` line on stdin with one JSON line: the latencies (ms) of N sequential `echo` calls and
// the CPU time (µs, user + system) this process used for them (the in-process batch export included).
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { trace } from '@opentelemetry/api';
import { echoStdioCommand } from './lib/servers.mjs';

const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
const dist = flag('dist');
const mode = flag('mode') ?? 'off';
const dir = pathToFileURL(`${dist.replace(/\/$/, '')}/`);

let telemetry;
// `on`: traces and metrics; `traces` or `metrics`: one of them (to tell their costs apart).
if (mode !== 'off') {
  const { setupTelemetry } = await import(new URL('telemetry/setup-telemetry.js', dir).href);
  telemetry = await setupTelemetry(undefined, {
    prometheus: mode !== 'traces',
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: flag('otlp'),
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_METRICS_EXPORTER: 'none',
      ...(mode === 'metrics' ? { OTEL_TRACES_EXPORTER: 'none' } : {}),
    },
  });
}
const { loadMcpServers } = await import(new URL('hub/load-mcp-servers.js', dir).href);
const { ToolRegistry } = await import(new URL('pipeline/tool-registry.js', dir).href);
const registry = new ToolRegistry();
const hub = await loadMcpServers({ servers: { echo: { type: 'stdio', ...echoStdioCommand() } } }, registry, {
  eraCache: false,
});
const tool = registry.get('echo__echo');
// `--as-gateway`: each call under a caller scope, as the gateway runs every downstream request
// (an AsyncLocalStorage: on Node 20 it turns on the promise hooks of the process, telemetry or not).
const { runAsCaller } = await import(new URL('mcp/caller-scope.js', dir).href);
const call = process.argv.includes('--as-gateway')
  ? (index) => runAsCaller({}, () => tool.execute(`c${index}`, { text: 'hello' }))
  : (index) => tool.execute(`c${index}`, { text: 'hello' });
if (tool === undefined) throw new Error(`echo__echo not registered: ${JSON.stringify(hub.status())}`);

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const count = Number(/^run (\d+)$/.exec(line)?.[1] ?? 0);
  if (count === 0) break;
  const latencies = [];
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const result = await call(index);
    latencies.push(performance.now() - started);
    if (result.isError) throw new Error(JSON.stringify(result));
  }
  // The spans of the block are exported within it (else a timer exports them between blocks,
  // outside the CPU measured): a flush per block, 300 spans, where the default batch is 512.
  await trace.getTracerProvider().getDelegate?.().forceFlush?.();
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(`${JSON.stringify({ latencies, cpuMicros: cpu.user + cpu.system })}\n`);
}
await hub.close();
await telemetry?.shutdown();
process.exit(0);
