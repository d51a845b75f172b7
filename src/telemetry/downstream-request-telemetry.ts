import { channel } from 'node:diagnostics_channel';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { mcptoolsInstruments } from './mcptools-metrics.js';
import { type OtelApi, otelApi } from './otel-api.js';
import { ATTR } from './telemetry-names.js';
import { extractTraceContext, type HeaderReader } from './trace-context.js';
import { failSpan, mcptoolsTracer } from './tracer.js';
import { failureType } from './upstream-request-telemetry.js';

/** What a downstream request's telemetry reads of the request. */
export interface DownstreamRequestInfo {
  /** `tools/call`, `resources/read` or `prompts/get`. */
  method: string;
  /** The tool or prompt name the client asked for (none for a resource: a URI is never recorded). */
  target?: string;
  /** The request's `params._meta` (W3C Trace Context under `traceparent`, MCP SEP-414). */
  meta?: Record<string, unknown>;
  /** The HTTP request's headers (`traceparent` there, when `_meta` has none). */
  headers?: HeaderReader;
  /** The downstream session's id (2025 era) and era, by its public name (`2025` or `2026-07-28`). */
  sessionId?: string;
  era: string;
  /** Who sent it: a hash of the token presented (`token:<hex>`), `anonymous` or `stdio`. Never on a span. */
  principal?: string;
}

/** What {@link SERVED_CHANNEL} publishes for each downstream request once it is answered. */
export interface ServedRequest {
  method: string;
  target?: string;
  outcome: string;
  durationMs: number;
  principal?: string;
  /** The request's span, when traced. */
  traceId?: string;
  spanId?: string;
}

/**
 * The `node:diagnostics_channel` every answered downstream request is published on (only while
 * someone subscribes: `serve --log-format json` writes one line per request from it).
 */
export const SERVED_CHANNEL = 'mcptools:gateway:request';
const served = channel(SERVED_CHANNEL);

function outcomeOf(result: unknown): string {
  const value = result as { isError?: unknown; inputRequests?: unknown } | undefined;
  if (value?.isError === true) return 'tool_error';
  if (value?.inputRequests !== undefined) return 'input_required';
  return 'ok';
}

/**
 * Serves one downstream request under a SERVER span `<method> <target>` whose parent is the
 * client's context (from `_meta`, else the `traceparent` header), so the upstream spans the
 * work makes (and the context passed on upstream) continue the client's trace; counts it as
 * `mcptools.gateway.requests` by method and outcome.
 */
export function observeDownstreamRequest<T>(
  info: DownstreamRequestInfo,
  serve: () => Promise<T>,
): Promise<T> {
  const api = otelApi();
  const publish = served.hasSubscribers;
  if (api === undefined && !publish) return serve();
  const instruments = mcptoolsInstruments();
  const traced = api === undefined ? undefined : recordingSpan(api, info);
  if (traced === undefined && instruments === undefined && !publish) return serve();
  const started = publish ? performance.now() : 0;
  const finish = (outcome: string, failed: boolean) => {
    if (traced !== undefined) {
      const { api, span } = traced;
      span.setAttribute(ATTR.outcome, outcome);
      if (failed) {
        span.setAttribute(ATTR.rpcStatusCode, outcome);
        failSpan(api, span, outcome);
      } else if (outcome === 'tool_error') failSpan(api, span, outcome);
      span.end();
    }
    instruments?.gatewayRequests.add(1, { [ATTR.methodName]: info.method, [ATTR.outcome]: outcome });
    if (publish) {
      const ids = traced?.span.spanContext();
      const message: ServedRequest = {
        method: info.method,
        ...(info.target === undefined ? {} : { target: info.target }),
        outcome,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        ...(info.principal === undefined ? {} : { principal: info.principal }),
        ...(ids === undefined ? {} : { traceId: ids.traceId, spanId: ids.spanId }),
      };
      served.publish(message);
    }
  };
  const answered =
    traced === undefined
      ? serve()
      : traced.api.context.with(traced.api.trace.setSpan(traced.parent, traced.span), serve);
  return answered.then(
    (result) => {
      finish(outcomeOf(result), false);
      return result;
    },
    (error: unknown) => {
      finish(failureType(error), true);
      throw error;
    },
  );
}

/** The request's SERVER span with its attributes, when one is being recorded. */
function recordingSpan(
  api: OtelApi,
  info: DownstreamRequestInfo,
): { api: OtelApi; span: Span; parent: Context } | undefined {
  const parent = extractTraceContext(api, info.meta, info.headers);
  const span = mcptoolsTracer(api).startSpan(
    info.target === undefined ? info.method : `${info.method} ${info.target}`,
    { kind: api.SpanKind.SERVER },
    parent,
  );
  if (!span.isRecording()) return undefined;
  const attributes: Attributes = { [ATTR.methodName]: info.method, [ATTR.era]: info.era };
  if (info.target !== undefined)
    attributes[info.method === 'prompts/get' ? ATTR.promptName : ATTR.toolName] = info.target;
  if (info.method === 'tools/call') attributes[ATTR.operationName] = 'execute_tool';
  if (info.sessionId !== undefined) attributes[ATTR.sessionId] = info.sessionId;
  span.setAttributes(attributes);
  return { api, span, parent };
}
