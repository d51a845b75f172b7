import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mib, rssPeakSampler } from '../../bench/lib/process-stats.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { eventually, httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { type FaultProxy, startFaultProxy } from './fault-proxy.js';

describe('a 200 MB Streamable HTTP response', () => {
  const registry = new ToolRegistry();
  let big: HttpFixture;
  let provider: McpToolHub;

  beforeAll(async () => {
    // 2025 sessions: the result comes as one SSE event.
    big = await startHttpFixture('big', ['--era', 'legacy'], { timeoutMs: 60_000 });
    provider = await loadMcpServers(
      { servers: { web: httpServer(big.url), local: stdioFixture('echo', [], { protocol: '2025' }) } },
      registry,
      { connectTimeoutMs: 60_000, callTimeoutMs: 90_000 },
    );
  });

  afterAll(async () => {
    await provider?.close();
    await big?.close();
  });

  it('fails with the size-limit error, memory bounded, the other server and the connection fine', async () => {
    const sampler = rssPeakSampler(process.pid);
    const baseline = process.memoryUsage().rss;
    const result = await registry.get('web__big_result')!.execute('big', { mb: 200 });
    const peak = sampler.stop();
    console.log(
      `200 MB over Streamable HTTP: RSS ${mib(baseline)} MiB before, peak ${mib(peak)} MiB (+${mib(peak - baseline)} MiB) → ${textOf(result).slice(0, 200)}`,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('10.0 MiB limit (maxResponseBytes)');
    // The bound: the 10 MiB cap, never the 200 MB sent (914 MB peak before the limit existed).
    expect(peak - baseline).toBeLessThan(256 * 1024 * 1024);
    expect(textOf(await registry.get('local__echo')!.execute('e', { text: 'fine' }))).toBe('fine');
    expect(textOf(await registry.get('web__ok')!.execute('o', {}))).toBe('ok');
    expect(provider.status('web')?.state).toBe('connected');
  });
});

describe('upstreams answering HTTP 500 and 404, and one breaking its SSE stream mid-response', () => {
  const registry = new ToolRegistry();
  let echo: HttpFixture;
  let failing500: FaultProxy;
  let failing404: FaultProxy;
  let breaking: FaultProxy;
  let provider: McpToolHub;

  beforeAll(async () => {
    echo = await startHttpFixture('echo', ['--era', 'legacy'], { timeoutMs: 60_000 });
    [failing500, failing404, breaking] = await Promise.all([
      startFaultProxy(echo.url),
      startFaultProxy(echo.url),
      startFaultProxy(echo.url),
    ]);
    failing500.mode = { status: 500 };
    failing404.mode = { status: 404 };
    provider = await loadMcpServers(
      {
        servers: {
          e500: httpServer(failing500.url),
          e404: httpServer(failing404.url),
          broken: httpServer(breaking.url),
          local: stdioFixture('echo', [], { protocol: '2025' }),
        },
      },
      registry,
      { connectTimeoutMs: 30_000, reconnect: { initialDelayMs: 200, maxDelayMs: 1600 } },
    );
  });

  afterAll(async () => {
    await provider?.close();
    await Promise.all([failing500, failing404, breaking].map((proxy) => proxy?.close()));
    await echo?.close();
  });

  it.each([
    ['e500', 500],
    ['e404', 404],
  ] as const)(
    'reports %s in status, keeps the others serving, retries with backoff and recovers',
    async (server, status) => {
      const proxy = server === 'e500' ? failing500 : failing404;
      const reported = provider.status(server)!;
      expect(reported.state).not.toBe('connected');
      expect(reported.lastError?.message).toContain(String(status));
      expect(textOf(await registry.get('local__echo')!.execute('l', { text: 'fine' }))).toBe('fine');
      // Retried, with growing delays: attempts go up, yet no hot loop (delays 200, 400, 800, 1600 ms).
      const attemptsBefore = provider.status(server)!.reconnectAttempts;
      const requestsBefore = proxy.requests;
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const attempts = provider.status(server)!.reconnectAttempts - attemptsBefore;
      console.log(
        `HTTP ${status}: ${attempts} reconnect attempts and ${proxy.requests - requestsBefore} requests in 4 s`,
      );
      expect(attempts).toBeGreaterThanOrEqual(1);
      expect(proxy.requests - requestsBefore).toBeLessThan(40);
      proxy.mode = 'pass';
      expect(await eventually(() => provider.status(server)?.state === 'connected', 20_000)).toBe(true);
      expect(textOf(await registry.get(`${server}__echo`)!.execute('r', { text: 'back' }))).toBe('back');
    },
  );

  it('fails a call whose SSE stream breaks mid-response with a clear error; later calls succeed', async () => {
    expect(await eventually(() => provider.status('broken')?.state === 'connected', 20_000)).toBe(true);
    breaking.mode = 'break-sse';
    const started = Date.now();
    // With a progress listener the upstream streams progress every 500 ms, so the stream is cut
    // mid-response at its first event (without one, the first bytes are the upstream SDK's
    // `: keepalive` comment after 15 s, and the cut came only then).
    const result = await registry
      .get('broken__slow')!
      .execute('s', { ms: 20_000, steps: 40 }, undefined, () => {});
    const ended = Date.now();
    console.log(
      `SSE stream cut (${breaking.cut} cut) ${breaking.cutAt! - started} ms into the call → failed ${ended - breaking.cutAt!} ms after the cut: ${textOf(result).slice(0, 300)}`,
    );
    expect(breaking.cut).toBeGreaterThan(0);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/broken|stream|closed|disconnect|terminated|aborted/i);
    expect(textOf(await registry.get('local__echo')!.execute('l', { text: 'fine' }))).toBe('fine');
    breaking.mode = 'pass';
    expect(await eventually(() => provider.status('broken')?.state === 'connected', 20_000)).toBe(true);
    expect(textOf(await registry.get('broken__echo')!.execute('b', { text: 'again' }))).toBe('again');
  });
});
