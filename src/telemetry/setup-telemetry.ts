import type { TelemetryConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { loadOtelApi } from './otel-api.js';

/** What {@link setupTelemetry} started; `shutdown()` flushes and stops it. */
export interface TelemetryHandle {
  /** Traces are exported over OTLP/HTTP. */
  traces: boolean;
  /** Metrics are exported over OTLP/HTTP. */
  otlpMetrics: boolean;
  /** The current metrics in Prometheus text format (when `GET /metrics` is served). */
  prometheus?: () => Promise<string>;
  /** Exports what is buffered and unregisters the SDK. Idempotent. */
  shutdown(): Promise<void>;
}

/** What {@link setupTelemetry} reads besides the configuration. */
export interface TelemetrySetupOptions {
  /** `serve --metrics`: serve `GET /metrics` in Prometheus text format. */
  prometheus?: boolean;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** `{ [key]: n }` for a positive number in `value`, else `{}`. */
function positive<K extends string>(key: K, value: string | undefined): Partial<Record<K, number>> {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? ({ [key]: number } as Record<K, number>) : {};
}

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** `OTEL_TRACES_SAMPLER` (+ `_ARG`), else the configured ratio, as a sampler (parent-based unless told). */
async function samplerFor(env: NodeJS.ProcessEnv, ratio: number | undefined) {
  const sdk = await import('@opentelemetry/sdk-trace');
  const name = env.OTEL_TRACES_SAMPLER?.trim();
  const argument = Number(env.OTEL_TRACES_SAMPLER_ARG ?? ratio ?? 1);
  const fraction = Number.isFinite(argument) && argument >= 0 && argument <= 1 ? argument : 1;
  switch (name) {
    case 'always_on':
      return new sdk.AlwaysOnSampler();
    case 'always_off':
      return new sdk.AlwaysOffSampler();
    case 'traceidratio':
      return new sdk.TraceIdRatioBasedSampler(fraction);
    case 'parentbased_always_off':
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(fraction) });
    case undefined:
    case '':
    case 'parentbased_always_on':
      return new sdk.ParentBasedSampler({
        root: fraction === 1 ? new sdk.AlwaysOnSampler() : new sdk.TraceIdRatioBasedSampler(fraction),
      });
    default:
      throw new McpToolsError(
        'CONFIG_INVALID',
        `OTEL_TRACES_SAMPLER "${name}" is not supported (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio)`,
        { recoverable: false },
      );
  }
}

/**
 * Sets up the OpenTelemetry SDK for the CLI and `serve`, only when asked: the standard `OTEL_*`
 * variables (`OTEL_EXPORTER_OTLP_ENDPOINT` and its per-signal forms, `OTEL_TRACES_EXPORTER` /
 * `OTEL_METRICS_EXPORTER` = `otlp`) or a `telemetry` section, and `prometheus` for `GET /metrics`.
 * Traces and metrics go over OTLP/HTTP. The SDK is imported here, lazily: without telemetry
 * nothing of it is loaded, and the library stays on the API's no-op. Resolves `undefined` when
 * nothing was asked for (or `OTEL_SDK_DISABLED=true`).
 */
export async function setupTelemetry(
  config: TelemetryConfig | undefined,
  options: TelemetrySetupOptions = {},
): Promise<TelemetryHandle | undefined> {
  const env = options.env ?? process.env;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const endpoint = config?.endpoint?.replace(/\/+$/, '');
  const anyEndpoint = set(env.OTEL_EXPORTER_OTLP_ENDPOINT) || endpoint !== undefined;
  const traces =
    config?.traces !== false &&
    env.OTEL_TRACES_EXPORTER?.trim() !== 'none' &&
    (anyEndpoint ||
      set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ||
      env.OTEL_TRACES_EXPORTER?.trim() === 'otlp');
  const otlpMetrics =
    env.OTEL_METRICS_EXPORTER?.trim() !== 'none' &&
    (anyEndpoint ||
      set(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) ||
      env.OTEL_METRICS_EXPORTER?.trim() === 'otlp');
  const prometheus = options.prometheus === true || config?.metrics === true;
  if (!traces && !otlpMetrics && !prometheus) return undefined;
  const { context, metrics, propagation, trace } = loadOtelApi();

  const { resourceFromAttributes, detectResources, envDetector } = await import('@opentelemetry/resources');
  const resource = resourceFromAttributes({
    'service.name': config?.serviceName ?? 'mcptools',
  }).merge(detectResources({ detectors: [envDetector] }));
  // The per-signal URL: the signal's own variable as is, else the generic one or the configured
  // endpoint with `/v1/<signal>` appended (the OTLP exporter rules, applied to `env`).
  const urlFor = (signal: 'traces' | 'metrics', specific: string | undefined) => {
    if (set(specific)) return { url: specific.trim() };
    const base = set(env.OTEL_EXPORTER_OTLP_ENDPOINT) ? env.OTEL_EXPORTER_OTLP_ENDPOINT.trim() : endpoint;
    return base === undefined ? {} : { url: `${base.replace(/\/+$/, '')}/v1/${signal}` };
  };

  const stops: (() => Promise<void>)[] = [];
  if (traces) {
    const [sdk, { OTLPTraceExporter }, { AsyncLocalStorageContextManager }, core] = await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
    ]);
    const provider = new sdk.TracerProvider({
      resource,
      sampler: await samplerFor(env, config?.sampleRatio),
      spanProcessors: [
        new sdk.BatchSpanProcessor({
          exporter: new OTLPTraceExporter(urlFor('traces', env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)),
          ...positive('scheduledDelayMillis', env.OTEL_BSP_SCHEDULE_DELAY),
          ...positive('maxExportBatchSize', env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE),
          ...positive('maxQueueSize', env.OTEL_BSP_MAX_QUEUE_SIZE),
        }),
      ],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(
      new core.CompositePropagator({
        propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
      }),
    );
    trace.setGlobalTracerProvider(provider);
    stops.push(async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    });
  }

  let scrape: (() => Promise<string>) | undefined;
  if (otlpMetrics || prometheus) {
    const sdkMetrics = await import('@opentelemetry/sdk-metrics');
    const readers: InstanceType<typeof sdkMetrics.MetricReader>[] = [];
    if (otlpMetrics) {
      const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-http');
      const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
      readers.push(
        new sdkMetrics.PeriodicExportingMetricReader({
          exporter: new OTLPMetricExporter(urlFor('metrics', env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)),
          exportIntervalMillis: Number.isFinite(interval) && interval > 0 ? interval : 60_000,
        }),
      );
    }
    if (prometheus) {
      const { PrometheusExporter, PrometheusSerializer } = await import('@opentelemetry/exporter-prometheus');
      // Served by the gateway at /metrics (behind its auth), never on a port of its own.
      const exporter = new PrometheusExporter({ preventServerStart: true });
      const serializer = new PrometheusSerializer(undefined, false, undefined, false, true);
      readers.push(exporter);
      scrape = async () => serializer.serialize((await exporter.collect()).resourceMetrics);
    }
    const provider = new sdkMetrics.MeterProvider({ resource, readers });
    metrics.setGlobalMeterProvider(provider);
    stops.push(async () => {
      await provider.shutdown();
      metrics.disable();
    });
  }

  let stopping: Promise<void> | undefined;
  return {
    traces,
    otlpMetrics,
    ...(scrape === undefined ? {} : { prometheus: scrape }),
    shutdown() {
      stopping ??= Promise.allSettled(stops.map((stop) => stop())).then(() => undefined);
      return stopping;
    },
  };
}
