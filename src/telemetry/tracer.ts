import { type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { INSTRUMENTATION_SCOPE } from './telemetry-names.js';

/**
 * The tracer of mcptools: the API's proxy, which turns into the registered SDK's tracer once a
 * host registers one and is a no-op until then (library users pay one non-recording span per
 * traced operation and nothing else).
 */
export const tracer = trace.getTracer(INSTRUMENTATION_SCOPE);

/** Low-cardinality `error.type` of a failure code: `TIMEOUT` → `timeout`. */
export function errorType(code: string): string {
  return code.toLowerCase();
}

/** Ends `span` as failed with `type` (its status says the type only: messages may quote upstream text). */
export function failSpan(span: Span, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}
