import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

// A library user's own SDK, registered globally: mcptools traces through the API only.
const exporter = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const registry = new ToolRegistry();
let provider: McpToolHub;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  provider = await loadMcpServers({ servers: { echo: stdioFixture('echo') } }, registry);
}, 60_000);

afterAll(async () => {
  await provider?.close();
  await tracerProvider.shutdown();
  trace.disable();
  context.disable();
});

it('puts a span per inner call under the script span, which names the script and counts its calls', async () => {
  const runScript = createRouterTools(provider, registry).find((tool) => tool.name === 'run_script')!;
  const result = await runScript.execute('outer', {
    script:
      'await tools.echo.echo({ text: "secret-in-script" }); return (await tools.echo.add({ a: 1, b: 2 })).sum;',
  });
  const scriptId = (result.details as { scriptId: string }).scriptId;
  const spans = exporter.getFinishedSpans();
  const script = spans.find((span) => span.name === 'run_script');
  expect(script?.attributes).toMatchObject({ 'mcptools.script.id': scriptId, 'mcptools.script.calls': 2 });
  const inner = spans.filter((span) => span.parentSpanContext?.spanId === script!.spanContext().spanId);
  expect(inner.map((span) => span.name).sort()).toEqual(['tools/call add', 'tools/call echo']);
  // Neither the script nor what it handled is recorded.
  expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('secret-in-script');
  // Control: a failing script's span says so by type only.
  exporter.reset();
  await runScript.execute('outer', { script: 'throw new Error("secret-in-error")' });
  const failed = exporter.getFinishedSpans().find((span) => span.name === 'run_script');
  expect(failed?.attributes['error.type']).toBe('script_error');
  expect(JSON.stringify([failed?.attributes, failed?.status, failed?.events])).not.toContain(
    'secret-in-error',
  );
});
