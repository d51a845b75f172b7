import type { Attributes } from '@opentelemetry/api';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { mcptoolsInstruments } from './mcptools-metrics.js';
import { otelApi } from './otel-api.js';
import { ATTR } from './telemetry-names.js';
import { type ObservedServer, transportAttributes } from './tool-call-telemetry.js';
import { withContextForInjection } from './trace-context.js';
import { errorType, failSpan, mcptoolsTracer } from './tracer.js';

/** The low-cardinality type of a failure: an `McpToolsError`'s code, a JSON-RPC code, else `_OTHER`. */
export function failureType(error: unknown): string {
  if (McpToolsError.isInstance(error)) return errorType(error.code);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' || typeof code === 'string' ? String(code) : '_OTHER';
}

/** `operation`, with `finish` called once it settles: no argument on success, the failure's type otherwise. */
export function finishWhenSettled<T>(operation: Promise<T>, finish: (failure?: string) => void): Promise<T> {
  return operation.then(
    (value) => {
      finish();
      return value;
    },
    (error: unknown) => {
      finish(failureType(error));
      throw error;
    },
  );
}

/**
 * Runs one upstream request other than a tool call (`resources/read`, `prompts/get`, …) under a
 * CLIENT span `<method>[ <prompt>]` and records `mcp.client.operation.duration` by method.
 * `extra` holds low-cardinality attributes only (a prompt's name; never a URI or argument).
 */
export function observeUpstreamRequest<T>(
  server: ObservedServer,
  method: string,
  extra: Attributes,
  send: () => Promise<T>,
): Promise<T> {
  const api = otelApi();
  if (api === undefined) return send();
  const instruments = mcptoolsInstruments();
  const parent = api.context.active();
  const prompt = extra[ATTR.promptName];
  const span = mcptoolsTracer(api).startSpan(
    typeof prompt === 'string' ? `${method} ${prompt}` : method,
    { kind: api.SpanKind.CLIENT },
    parent,
  );
  const recording = span.isRecording();
  if (!recording && instruments === undefined) return send();
  if (recording)
    span.setAttributes({
      [ATTR.methodName]: method,
      [ATTR.server]: server.name,
      ...transportAttributes(server),
      ...extra,
    });
  const started = performance.now();
  const finish = (failure?: string) => {
    if (recording) {
      if (failure !== undefined) failSpan(api, span, failure);
      span.end();
    }
    instruments?.upstreamDuration.record((performance.now() - started) / 1000, {
      [ATTR.server]: server.name,
      [ATTR.methodName]: method,
      ...(failure === undefined ? {} : { [ATTR.errorType]: failure }),
    });
  };
  // The span goes upstream in `_meta` (built synchronously by `send`); no async context needed.
  const sent = recording ? withContextForInjection(api.trace.setSpan(parent, span), send) : send();
  return finishWhenSettled(sent, finish);
}
