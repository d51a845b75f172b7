import { ProxyTracerProvider, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { INSTRUMENTATION_SCOPE } from './telemetry-names.js';

/**
 * The tracer of mcptools: the API's proxy, which turns into the registered SDK's tracer once a
 * host registers one and is a no-op until then (library users pay one non-recording span per
 * traced operation and nothing else).
 */
export const tracer = trace.getTracer(INSTRUMENTATION_SCOPE);

/** The API's no-op provider: the delegate of its global proxy while no SDK is registered. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Whether a tracer provider (an SDK) is registered: false while the API's global proxy still
 * delegates to its no-op, so that a hot path can skip the work of naming a span no one records.
 */
export function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_PROVIDER;
}

/** Low-cardinality `error.type` of a failure code: `TIMEOUT` → `timeout`. */
export function errorType(code: string): string {
  return code.toLowerCase();
}

/** Ends `span` as failed with `type` (its status says the type only: messages may quote upstream text). */
export function failSpan(span: Span, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}
