import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { limitSseEvents } from '../../src/mcp/sse-event-limiter.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { httpServer, stdioFixture, textOf } from './hub-test-helpers.js';

describe('size limits, enforced before the bytes are buffered', () => {
  const registry = new ToolRegistry();
  let http: HttpFixture;
  let httpBoth: HttpFixture;
  let provider: McpToolHub;

  beforeAll(async () => {
    // Sessions answer over SSE; the stateless handler (2026-07-28) answers with JSON bodies.
    http = await startHttpFixture('big', ['--era', 'legacy']);
    httpBoth = await startHttpFixture('big');
    provider = await loadMcpServers(
      {
        servers: {
          web: httpServer(http.url),
          json: httpServer(httpBoth.url),
          local: stdioFixture('big', ['--era', 'legacy']),
        },
      },
      registry,
      { maxResponseBytes: 2 * 1024 * 1024, maxArgumentBytes: 1024 * 1024, connectTimeoutMs: 30_000 },
    );
  });

  afterAll(async () => {
    await provider?.close();
    await http?.close();
    await httpBoth?.close();
  });

  it.each(['web', 'json'])(
    'fails an HTTP result over maxResponseBytes (%s) with an error naming the limit, and stays usable',
    async (server) => {
      const result = await registry.get(`${server}__big_result`)!.execute('1', { mb: 3 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('2.0 MiB limit (maxResponseBytes)');
      expect(textOf(await registry.get(`${server}__ok`)!.execute('2', {}))).toBe('ok');
      const fits = await registry.get(`${server}__big_result`)!.execute('3', { mb: 1 });
      expect(textOf(fits).length).toBeGreaterThan(90_000);
    },
  );

  it('refuses arguments over maxArgumentBytes, or nested too deep, before they reach the server', async () => {
    for (const server of ['web', 'local']) {
      const big = await registry.get(`${server}__sink`)!.execute('1', { data: 'x'.repeat(2 * 1024 * 1024) });
      expect(big.details).toMatchObject({ code: 'INVALID_ARGUMENTS' });
      expect(textOf(big)).toContain('larger than 1.0 MiB (maxArgumentBytes)');
      let deep: unknown = 1;
      for (let level = 0; level < 10_000; level++) deep = [deep];
      const nested = await registry.get(`${server}__sink`)!.execute('2', { data: deep });
      expect(textOf(nested)).toContain('nested deeper than 128 levels');
      expect(textOf(await registry.get(`${server}__sink_count`)!.execute('3', {}))).toBe('0');
    }
  });
});

describe('limitSseEvents', () => {
  async function run(chunks: string[], max: number): Promise<string> {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(Buffer.from(chunk));
        controller.close();
      },
    });
    const out: string[] = [];
    const reader = limitSseEvents(source, max).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out.join('');
      out.push(Buffer.from(value).toString());
    }
  }

  it('passes small events whole, whatever the chunking and line endings', async () => {
    const stream = 'event: message\ndata: {"id":1}\n\nevent: message\r\ndata: {"id":2}\r\n\r\n';
    const chunked = stream.split('');
    expect(await run(chunked, 100)).toBe(stream);
  });

  it('replaces an oversized event with a JSON-RPC error for its id, keeping the next event', async () => {
    const big = `event: message\ndata: {"result":{"text":"${'x'.repeat(500)}"},"jsonrpc":"2.0","id":7}\n\n`;
    const next = 'event: message\ndata: {"jsonrpc":"2.0","id":8,"result":{}}\n\n';
    const out = await run([big.slice(0, 100), big.slice(100, 300), big.slice(300), next], 200);
    expect(out).toBe(
      `event: message\ndata: {"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"the event is more than the 200 B limit (maxResponseBytes)"}}\n\n${next}`,
    );
  });
});
