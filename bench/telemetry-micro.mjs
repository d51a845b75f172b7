// In-process cost of the tool-call instrumentation alone (no MCP call): observeToolCall around a
// resolved result, with no SDK (`off`), traces only (BatchSpanProcessor to a no-op exporter),
// metrics only (Prometheus reader, never collected) or both (`on`). `floor` is the SDK's own
// share with no mcptools code: one span started with the same 11 attributes, 3 more set, ended
// through the BatchSpanProcessor, and one histogram record with a cached attribute set — what
// any instrumentation recording the same span and histogram pays. `serialize` is the OTLP
// exporter's encoding of those spans (JSON, what OTLP/HTTP sends here, and protobuf), per span.
// Each figure is CPU time (user + system) per call, the median of --repetitions=N runs.
//   npm run build && node bench/run.mjs telemetry-micro off|traces|metrics|on|floor|serialize [--repetitions=5] [--context-manager]
import { context, metrics, propagation, SpanKind, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { quantile } from './lib/stats.mjs';

const mode = process.argv[2] ?? 'on';
const repetitions = Number(
  process.argv.find((arg) => arg.startsWith('--repetitions='))?.slice('--repetitions='.length) ?? 5,
);
const MODES = ['off', 'traces', 'metrics', 'on', 'floor', 'serialize'];
if (!MODES.includes(mode)) {
  console.error(`mode must be one of ${MODES.join(', ')}, not "${mode}"`);
  process.exit(2);
}

const SPAN_ATTRIBUTES = {
  'gen_ai.operation.name': 'execute_tool',
  'mcp.method.name': 'tools/call',
  'gen_ai.tool.name': 'echo',
  'mcptools.tool.exposed_name': 'echo__echo',
  'mcptools.server': 'echo',
  'mcptools.arguments.count': 1,
  'mcptools.arguments.size': 13,
  'mcptools.transport': 'stdio',
  'network.transport': 'pipe',
  'mcptools.era': '2025',
  'mcp.protocol.version': '2025-11-25',
};

/** CPU µs per call of `step` (async), the median of `repetitions` runs of `n` after a warm-up. */
async function cpuPerCall(step, n = 50_000) {
  for (let index = 0; index < 20_000; index++) await step();
  const runs = [];
  for (let repetition = 0; repetition < repetitions; repetition++) {
    const before = process.cpuUsage();
    for (let index = 0; index < n; index++) await step();
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / n);
  }
  return runs;
}

function report(label, runs) {
  console.log(
    `${label}: ${quantile(runs, 0.5).toFixed(2)} µs CPU per call (runs: ${runs.map((run) => run.toFixed(2)).join(', ')})`,
  );
}

if (mode === 'serialize') {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('bench');
  for (let index = 0; index < 512; index++) {
    const span = tracer.startSpan('tools/call echo', { kind: SpanKind.CLIENT, attributes: SPAN_ATTRIBUTES });
    span.setAttributes({
      'mcptools.outcome': 'ok',
      'mcptools.result.content.count': 1,
      'mcptools.result.size': 5,
    });
    span.end();
  }
  const spans = exporter.getFinishedSpans();
  for (const [name, serializer] of [
    ['JSON', JsonTraceSerializer],
    ['protobuf', ProtobufTraceSerializer],
  ]) {
    const bytes = serializer.serializeRequest(spans).length;
    // One step is one batch of 512: the figure is per span.
    const runs = (await cpuPerCall(async () => serializer.serializeRequest(spans), 100)).map(
      (run) => run / 512,
    );
    report(`OTLP ${name} encoding, ${(bytes / 512).toFixed(0)} bytes/span`, runs);
  }
  process.exit(0);
}

// `--context-manager`: the async context manager `serve` registers (AsyncLocalStorage), entered
// once (as the BatchSpanProcessor's export does): on Node 20 every promise then pays a hook.
if (process.argv.includes('--context-manager')) {
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  context.with(context.active(), () => {});
}
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

if (mode === 'floor') {
  const tracer = trace.getTracer('bench');
  const histogram = metrics.getMeter('bench').createHistogram('bench.duration', { unit: 's' });
  const labels = { 'mcptools.server': 'echo', 'gen_ai.tool.name': 'echo', 'mcptools.outcome': 'ok' };
  report(
    'SDK floor (span start with 11 attributes, 3 set, end; one histogram record)',
    await cpuPerCall(async () => {
      const span = tracer.startSpan('tools/call echo', {
        kind: SpanKind.CLIENT,
        attributes: SPAN_ATTRIBUTES,
      });
      span.setAttribute('mcptools.outcome', 'ok');
      span.setAttribute('mcptools.result.content.count', 1);
      span.setAttribute('mcptools.result.size', 5);
      span.end();
      histogram.record(0.0001, labels);
    }),
  );
  process.exit(0);
}

const { observeToolCall } = await import('../dist/telemetry/tool-call-telemetry.js');
const { traceContextMeta } = await import('../dist/telemetry/trace-context.js');
const server = { name: 'echo', transportKind: 'stdio', era: 'legacy', protocolVersion: '2025-11-25' };
const result = { content: [{ type: 'text', text: 'hello' }] };
// What the adapter does inside the call: the `_meta` that carries the span upstream.
const run = async () => {
  traceContextMeta();
  return result;
};
report(
  `observeToolCall, ${mode}`,
  await cpuPerCall(() => observeToolCall(server, 'echo', 'echo__echo', { text: 'hello' }, run)),
);
process.exit(0);
