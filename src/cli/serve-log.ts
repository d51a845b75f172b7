import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { SecretRedactor } from '../config/secret-redactor.js';
import { SERVED_CHANNEL, type ServedRequest } from '../telemetry/downstream-request-telemetry.js';
import { otelApi } from '../telemetry/otel-api.js';

/** How `serve` writes its log: readable lines (`text`, the default) or one JSON object per line. */
export type LogFormat = 'text' | 'json';

/** What one log entry may say besides its message. */
export interface LogFields {
  level?: 'debug' | 'info' | 'warn' | 'error';
  server?: string;
  tool?: string;
  principal?: string;
  outcome?: string;
  durationMs?: number;
  traceId?: string;
  spanId?: string;
}

/** `serve`'s logger: `log(message, fields?)`, and `close()` to stop the per-request entries. */
export interface ServeLog {
  log(message: string, fields?: LogFields): void;
  close(): void;
}

/**
 * The logger of `mcptools serve`, on stderr. `text`: today's readable lines
 * (`mcptools serve: <message>`). `json`: one object per line with `time`, `level`, `message`
 * and, where known, `server`, `tool`, `trace_id`, `span_id` (the current span's, else the
 * request's) and `principal` (a hash of the token, never the token), plus one `info` entry per
 * answered `tools/call`, `resources/read` and `prompts/get`. Every message passes `redactor`.
 * `serverOf` names the server of an exposed tool name.
 */
export function createServeLog(
  format: LogFormat,
  redactor: () => SecretRedactor | undefined,
  serverOf: (tool: string) => string | undefined = () => undefined,
  write: (line: string) => void = (line) => process.stderr.write(line),
): ServeLog {
  if (format === 'text')
    return {
      log: (message) => write(`mcptools serve: ${redactor()?.text(message) ?? message}\n`),
      close: () => {},
    };
  const log = (message: string, fields: LogFields = {}) => {
    const active = otelApi()?.trace.getActiveSpan()?.spanContext();
    const traceId = fields.traceId ?? active?.traceId;
    const spanId = fields.spanId ?? active?.spanId;
    const entry = {
      time: new Date().toISOString(),
      level: fields.level ?? 'info',
      message: redactor()?.text(message) ?? message,
      ...(fields.server === undefined ? {} : { server: fields.server }),
      ...(fields.tool === undefined ? {} : { tool: fields.tool }),
      ...(fields.outcome === undefined ? {} : { outcome: fields.outcome }),
      ...(fields.durationMs === undefined ? {} : { duration_ms: fields.durationMs }),
      ...(traceId === undefined ? {} : { trace_id: traceId }),
      ...(spanId === undefined ? {} : { span_id: spanId }),
      ...(fields.principal === undefined ? {} : { principal: fields.principal }),
    };
    write(`${JSON.stringify(entry)}\n`);
  };
  const onServed = (message: unknown) => {
    const request = message as ServedRequest;
    const server = request.target === undefined ? undefined : serverOf(request.target);
    log(`${request.method}${request.target === undefined ? '' : ` ${request.target}`}: ${request.outcome}`, {
      level: request.outcome === 'ok' || request.outcome === 'input_required' ? 'info' : 'warn',
      ...(server === undefined ? {} : { server }),
      ...(request.target === undefined || request.method !== 'tools/call' ? {} : { tool: request.target }),
      outcome: request.outcome,
      durationMs: request.durationMs,
      ...(request.principal === undefined ? {} : { principal: request.principal }),
      ...(request.traceId === undefined ? {} : { traceId: request.traceId, spanId: request.spanId! }),
    });
  };
  subscribe(SERVED_CHANNEL, onServed);
  return { log, close: () => unsubscribe(SERVED_CHANNEL, onServed) };
}
