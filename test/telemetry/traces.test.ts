import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { connectClient, eras, type RunningGateway, startGateway } from '../gateway/gateway-test-helpers.js';

// A library user's own SDK, registered globally: mcptools traces through the API only.
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager().enable();
const testTracer = () => trace.getTracer('test-client');

const CANARY_ENV = 'canary-env-7f3a9c1d2e';
const CANARY_HEADER = 'canary-header-b84e02a6f1';
const CANARY_ARGUMENT = 'canary-argument-5d1c7e9b';

let http: HttpFixture;
let running: RunningGateway;

beforeAll(async () => {
  context.setGlobalContextManager(contextManager);
  // As `serve` registers it: Trace Context and Baggage are read from a caller.
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(provider);
  http = await startHttpFixture('trace-echo');
  const stdio = fixtureCommand('trace-echo');
  running = await startGateway({
    servers: {
      pipe: { type: 'stdio', ...stdio, env: { CANARY_TOKEN: CANARY_ENV } },
      web: { type: 'streamable-http', url: http.url, headers: { Authorization: `Bearer ${CANARY_HEADER}` } },
    },
  });
}, 90_000);

afterAll(async () => {
  await running?.close();
  await http?.close();
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

/** A client span, and the `_meta` that carries it to the gateway (as an instrumented client sends it). */
function clientSpan(name: string) {
  const span = testTracer().startSpan(name, { kind: SpanKind.CLIENT }, ROOT_CONTEXT);
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), meta);
  return { span, meta };
}

const spansOf = (traceId: string) =>
  exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe.each(eras)('traces through the gateway ($label)', ({ era }) => {
  it.each(['pipe', 'web'])('one call of %s is one trace: client → gateway → upstream', async (server) => {
    const client = await connectClient(running.url, era);
    try {
      const { span, meta } = clientSpan('client tools/call');
      const result = await client.callTool({
        name: `${server}__trace_context`,
        arguments: { note: CANARY_ARGUMENT },
        _meta: meta,
      });
      span.end();
      const received = JSON.parse((result.content as { text: string }[])[0]!.text) as {
        meta: string | null;
        header: string | null;
      };
      const traceId = span.spanContext().traceId;
      const spans = spansOf(traceId);
      const gateway = spans.find((each) => each.kind === SpanKind.SERVER);
      const tool = spans.find(
        (each) => each.kind === SpanKind.CLIENT && each.name === 'tools/call trace_context',
      );
      expect(gateway?.name).toBe(`tools/call ${server}__trace_context`);
      expect(parentOf(gateway!)).toBe(span.spanContext().spanId);
      expect(parentOf(tool!)).toBe(gateway!.spanContext().spanId);
      expect(tool!.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'trace_context',
        'mcp.method.name': 'tools/call',
        'mcptools.tool.exposed_name': `${server}__trace_context`,
        'mcptools.server': server,
        'mcptools.transport': server === 'pipe' ? 'stdio' : 'streamable-http',
        'network.transport': server === 'pipe' ? 'pipe' : 'tcp',
        'mcptools.outcome': 'ok',
        'mcptools.arguments.count': 1,
      });
      // The era by its public name: the downstream session's on the gateway span, the upstream's on the tool span.
      expect(gateway!.attributes['mcptools.era']).toBe(era === 'modern' ? '2026-07-28' : '2025');
      expect(['2025', '2026-07-28']).toContain(tool!.attributes['mcptools.era']);
      // The upstream got the tool span as its parent, in _meta (and as an HTTP header over HTTP).
      const expected = `00-${traceId}-${tool!.spanContext().spanId}-01`;
      expect(received.meta).toBe(expected);
      expect(received.header).toBe(server === 'web' ? expected : null);
    } finally {
      await client.close();
    }
  });

  it.each(['pipe', 'web'])(
    "%s: only traceparent goes upstream; the caller's baggage and tracestate stay downstream",
    async (server) => {
      const client = await connectClient(running.url, era, {
        headers: { baggage: 'x-user-role=admin', tracestate: 'vendor=header-secret' },
      });
      try {
        const { span, meta } = clientSpan('client tools/call');
        const result = await client.callTool({
          name: `${server}__trace_context`,
          arguments: {},
          _meta: { ...meta, tracestate: 'vendor=meta-secret', baggage: 'x-user-role=admin' },
        });
        span.end();
        const received = JSON.parse((result.content as { text: string }[])[0]!.text) as {
          meta: string | null;
          header: string | null;
          tracestate: { meta: string | null; header: string | null };
          baggage: { meta: string | null; header: string | null };
        };
        // The control: the trace itself still reaches the upstream.
        expect(received.meta).toMatch(new RegExp(`^00-${span.spanContext().traceId}-[0-9a-f]{16}-01$`));
        expect(received.header).toBe(server === 'web' ? received.meta : null);
        expect(received.baggage).toEqual({ meta: null, header: null });
        expect(received.tracestate).toEqual({ meta: null, header: null });
      } finally {
        await client.close();
      }
    },
  );

  it('a failing call has the error on its spans', async () => {
    const client = await connectClient(running.url, era);
    try {
      const { span, meta } = clientSpan('client fail');
      const result = await client.callTool({ name: 'pipe__fail_traced', arguments: {}, _meta: meta });
      span.end();
      expect(result.isError).toBe(true);
      const spans = spansOf(span.spanContext().traceId);
      const tool = spans.find((each) => each.name === 'tools/call fail_traced');
      expect(tool?.status.code).toBe(SpanStatusCode.ERROR);
      expect(tool?.attributes['error.type']).toBe('tool_error');
      const gateway = spans.find((each) => each.kind === SpanKind.SERVER);
      expect(gateway?.status.code).toBe(SpanStatusCode.ERROR);
      expect(gateway?.attributes['mcptools.outcome']).toBe('tool_error');
    } finally {
      await client.close();
    }
  });
});

describe('traces of the hub', () => {
  it('a resource read and a prompt get are spans whose context reaches the upstream', async () => {
    const parent = testTracer().startSpan('agent step', {}, ROOT_CONTEXT);
    const [contents, prompt] = await context.with(trace.setSpan(ROOT_CONTEXT, parent), () =>
      Promise.all([
        running.hub.resources.read('web', 'trace://context'),
        running.hub.prompts.get('pipe', 'traced'),
      ]),
    );
    parent.end();
    const spans = spansOf(parent.spanContext().traceId);
    const read = spans.find((each) => each.name === 'resources/read');
    const get = spans.find((each) => each.name === 'prompts/get traced');
    expect(parentOf(read!)).toBe(parent.spanContext().spanId);
    expect(get?.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'mcptools.server': 'pipe' });
    const readMeta = JSON.parse(contents[0]!.text!).meta as string;
    expect(readMeta).toBe(`00-${parent.spanContext().traceId}-${read!.spanContext().spanId}-01`);
    const promptText = (prompt.messages[0]!.content as { text: string }).text;
    expect(JSON.parse(promptText).meta).toBe(
      `00-${parent.spanContext().traceId}-${get!.spanContext().spanId}-01`,
    );
  });

  it('connects are spans of their own', () => {
    const connects = exporter.getFinishedSpans().filter((each) => each.name.startsWith('connect '));
    expect(connects.map((each) => each.name).sort()).toEqual(
      expect.arrayContaining(['connect pipe', 'connect web']),
    );
    expect(connects.find((each) => each.name === 'connect web')?.attributes['mcptools.outcome']).toBe('ok');
  });

  it('no span carries a secret, an argument value or a result text', () => {
    const everything = JSON.stringify(
      exporter.getFinishedSpans().map((span) => ({
        name: span.name,
        attributes: span.attributes,
        events: span.events,
        status: span.status,
      })),
    );
    expect(everything).toContain('trace_context');
    for (const canary of [CANARY_ENV, CANARY_HEADER, CANARY_ARGUMENT, 'failed on purpose'])
      expect(everything).not.toContain(canary);
  });
});
