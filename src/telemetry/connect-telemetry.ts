import { mcptoolsInstruments } from './mcptools-metrics.js';
import { otelApi } from './otel-api.js';
import { ATTR } from './telemetry-names.js';
import { type ObservedServer, transportAttributes } from './tool-call-telemetry.js';
import { failSpan, mcptoolsTracer } from './tracer.js';
import { finishWhenSettled } from './upstream-request-telemetry.js';

/**
 * Runs one connect attempt of `server` under an INTERNAL span `connect <server>` (a new trace:
 * a reconnect belongs to no caller) and counts reconnects (`mcptools.reconnects`, by server
 * and outcome). `attempt` counts the attempts since the last successful connect.
 */
export function observeConnect<T>(
  server: ObservedServer,
  attempt: number,
  reconnect: boolean,
  connect: () => Promise<T>,
): Promise<T> {
  const api = otelApi();
  if (api === undefined) return connect();
  const instruments = mcptoolsInstruments();
  const span = mcptoolsTracer(api).startSpan(
    `connect ${server.name}`,
    { kind: api.SpanKind.INTERNAL, root: true },
    api.context.active(),
  );
  const recording = span.isRecording();
  if (!recording && instruments === undefined) return connect();
  if (recording)
    span.setAttributes({ [ATTR.server]: server.name, [ATTR.attempt]: attempt, [ATTR.reconnect]: reconnect });
  const finish = (failure?: string) => {
    if (recording) {
      span.setAttributes(transportAttributes(server));
      span.setAttribute(ATTR.outcome, failure ?? 'ok');
      if (failure !== undefined) failSpan(api, span, failure);
      span.end();
    }
    if (reconnect)
      instruments?.reconnects.add(1, { [ATTR.server]: server.name, [ATTR.outcome]: failure ?? 'ok' });
  };
  // Not made the active context: nothing under a connect needs it, and an async context costs
  // every later promise of the process on Node 20 (see withContextForInjection).
  return finishWhenSettled(connect(), finish);
}
