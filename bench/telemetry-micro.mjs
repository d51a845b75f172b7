// In-process cost of the tool-call instrumentation alone (no MCP call): observeToolCall around a
// resolved result, with no SDK (`off`), traces only (BatchSpanProcessor to a no-op exporter),
// metrics only (Prometheus reader, never collected) or both (`on`).
//   npm run build && node bench/telemetry-micro.mjs off|traces|metrics|on
import { metrics, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const mode = process.argv[2];
if (mode !== 'off') {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (mode !== 'metrics')
    trace.setGlobalTracerProvider(
      new TracerProvider({
        spanProcessors: [
          new BatchSpanProcessor({
            exporter: { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} },
          }),
        ],
      }),
    );
  if (mode !== 'traces')
    metrics.setGlobalMeterProvider(
      new MeterProvider({ readers: [new PrometheusExporter({ preventServerStart: true })] }),
    );
}
const { observeToolCall } = await import('../dist/telemetry/tool-call-telemetry.js');
const { traceContextMeta } = await import('../dist/telemetry/trace-context.js');
const server = { name: 'echo', transportKind: 'stdio', era: 'legacy', protocolVersion: '2025-11-25' };
const result = { content: [{ type: 'text', text: 'hello' }] };
const run = async () => {
  traceContextMeta();
  return result;
};
for (let i = 0; i < 20000; i++) await observeToolCall(server, 'echo', 'echo__echo', { text: 'hi' }, run);
const n = 50000;
const t = performance.now();
for (let i = 0; i < n; i++) await observeToolCall(server, 'echo', 'echo__echo', { text: 'hi' }, run);
console.log(mode, (((performance.now() - t) / n) * 1000).toFixed(2), 'µs per call');
process.exit(0);
