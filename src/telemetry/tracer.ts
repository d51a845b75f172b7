import type { Span, Tracer, TracerProvider } from '@opentelemetry/api';
import type { OtelApi } from './otel-api.js';
import { INSTRUMENTATION_SCOPE } from './telemetry-names.js';

let cached: { provider: TracerProvider; tracer: Tracer } | undefined;
let noopProvider: unknown;

/**
 * The tracer of mcptools on the global tracer provider, taken again when the provider changes:
 * a host that registers its SDK through another copy of the API than mcptools' replaces the
 * global provider, and a tracer taken from the earlier one would stay a no-op.
 */
export function mcptoolsTracer(api: OtelApi): Tracer {
  const provider = api.trace.getTracerProvider();
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer(INSTRUMENTATION_SCOPE) };
  return cached.tracer;
}

/**
 * Whether a tracer provider (an SDK) is registered: false while the API's global proxy still
 * delegates to its no-op, so that a hot path can skip the work of naming a span no one records.
 */
export function tracing(api: OtelApi): boolean {
  // The API's no-op provider: the delegate of its global proxy while no SDK is registered.
  noopProvider ??= new api.ProxyTracerProvider().getDelegate();
  const provider = api.trace.getTracerProvider();
  return !(provider instanceof api.ProxyTracerProvider) || provider.getDelegate() !== noopProvider;
}

/** Low-cardinality `error.type` of a failure code: `TIMEOUT` → `timeout`. */
export function errorType(code: string): string {
  return code.toLowerCase();
}

/** Ends `span` as failed with `type` (its status says the type only: messages may quote upstream text). */
export function failSpan(api: OtelApi, span: Span, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
}
