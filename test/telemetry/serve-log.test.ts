import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServeLog } from '../../src/cli/serve-log.js';
import { SecretRedactor } from '../../src/config/secret-redactor.js';
import { observeDownstreamRequest } from '../../src/telemetry/downstream-request-telemetry.js';

const SECRET = 'sk-live-4f9e1c2b7a';
const redactor = new SecretRedactor([SECRET]);

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new TracerProvider());
});

afterAll(() => {
  trace.disable();
  context.disable();
});

describe('serve --log-format', () => {
  it('json: one object per line, secrets redacted, the current span’s ids', () => {
    const lines: string[] = [];
    const log = createServeLog(
      'json',
      () => redactor,
      undefined,
      (line) => lines.push(line),
    );
    const span = trace.getTracer('test').startSpan('work', {}, ROOT_CONTEXT);
    context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
      log.log(`upstream said: bad key ${SECRET}`, { level: 'warn', server: 'github' }),
    );
    log.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 'warn',
      message: 'upstream said: bad key ***',
      server: 'github',
      trace_id: span.spanContext().traceId,
      span_id: span.spanContext().spanId,
    });
    expect(Number.isNaN(Date.parse(entry.time as string))).toBe(false);
    expect(lines[0]).not.toContain(SECRET);
  });

  it('json: one entry per answered downstream request, with server, tool and principal', async () => {
    const lines: string[] = [];
    const log = createServeLog(
      'json',
      () => redactor,
      (tool) => (tool === 'github__search' ? 'github' : undefined),
      (line) => lines.push(line),
    );
    await observeDownstreamRequest(
      { method: 'tools/call', target: 'github__search', era: '2025', principal: 'token:0123456789abcdef' },
      async () => ({ content: [], isError: true }),
    );
    log.close();
    await observeDownstreamRequest(
      { method: 'tools/call', target: 'github__search', era: '2025' },
      async () => ({}),
    );
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'warn',
      message: 'tools/call github__search: tool_error',
      server: 'github',
      tool: 'github__search',
      outcome: 'tool_error',
      principal: 'token:0123456789abcdef',
    });
  });

  it('text: today’s readable lines, redacted', () => {
    const lines: string[] = [];
    const log = createServeLog(
      'text',
      () => redactor,
      undefined,
      (line) => lines.push(line),
    );
    log.log(`listening; token ${SECRET}`);
    expect(lines).toEqual(['mcptools serve: listening; token ***\n']);
  });
});
