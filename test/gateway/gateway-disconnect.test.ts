import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cliBin } from '../cli/cli-process.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { waitUntil } from '../helpers/wait-until.js';
import { httpServer, isAlive, stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * "a downstream session that ends or disconnects cancels its calls in flight". A
 * client whose HTTP connection for a `tools/call` closes (no `notifications/cancelled`, no
 * DELETE) gets its call cancelled upstream, in both downstream eras and for upstreams of both
 * eras (a 2026-07-28 HTTP upstream and a 2025 stdio upstream).
 */

let running: RunningGateway;
let echoModern: HttpFixture;

beforeAll(async () => {
  echoModern = await startHttpFixture('echo', ['--era', 'modern']);
  running = await startGateway(
    { servers: { echo: httpServer(echoModern.url), echo25: stdioFixture('echo', ['--era', 'legacy']) } },
    // A 2025-era response stream can be resumed (Last-Event-ID): its call waits this long first.
    { resumeGraceMs: 300 },
  );
});

afterAll(async () => {
  await running?.close();
  await echoModern?.close();
});

const cancelledCount = async (client: Client, server: string) => {
  const result = await client.callTool({ name: `${server}__cancelled_count`, arguments: {} });
  return (result.structuredContent as { cancelled: number }).cancelled;
};

/** A client whose `tools/call` POSTs can be dropped: `drop()` aborts the fetch of every call in flight. */
async function droppingClient(url: string, era: 'modern' | 'legacy') {
  const calls = new Set<AbortController>();
  const dropping: typeof fetch = (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    if (!body.includes('"tools/call"')) return fetch(input, init);
    const controller = new AbortController();
    calls.add(controller);
    return fetch(input, { ...init, signal: controller.signal });
  };
  const client = new Client(
    { name: 'dropping', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: dropping }));
  return {
    client,
    drop: () => {
      for (const controller of calls) controller.abort();
    },
  };
}

describe.each(eras)('a $label whose call connection closes', ({ era }) => {
  it.each(['echo', 'echo25'])('cancels its call upstream (%s)', async (server) => {
    const observer = await connectClient(running.url, 'modern');
    const { client, drop } = await droppingClient(running.url, era);
    try {
      const before = await cancelledCount(observer, server);
      const started = new Promise<void>((resolve) => {
        void client
          .callTool(
            { name: `${server}__slow`, arguments: { ms: 8000, steps: 80 } },
            { onprogress: () => resolve() },
          )
          .catch(() => {});
      });
      await started;
      drop();
      await waitUntil(
        async () => (await cancelledCount(observer, server)) === before + 1,
        'until (await cancelledCount(observer, server)) === before + 1',
      );
    } finally {
      await client.close().catch(() => {});
      await observer.close();
    }
  });
});

describe('a 2025-era session that ends with DELETE', () => {
  it.each(['echo', 'echo25'])('cancels its call in flight upstream (%s)', async (server) => {
    const observer = await connectClient(running.url, 'modern');
    const leaving = await connectClient(running.url, 'legacy');
    try {
      const before = await cancelledCount(observer, server);
      await new Promise<void>((resolve) => {
        void leaving
          .callTool(
            { name: `${server}__slow`, arguments: { ms: 8000, steps: 80 } },
            { onprogress: () => resolve() },
          )
          .catch(() => {});
      });
      await (leaving.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
      await waitUntil(
        async () => (await cancelledCount(observer, server)) === before + 1,
        'until (await cancelledCount(observer, server)) === before + 1',
      );
    } finally {
      await leaving.close().catch(() => {});
      await observer.close();
    }
  });
});

describe.each(eras)('a $label of mcptools serve --stdio (built binary) that disconnects', ({ era }) => {
  it('cancels its call in flight upstream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcptools-disconnect-'));
    const config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({ servers: { echo: { type: 'streamable-http', url: echoModern.url } } }),
    );
    const observer = await connectClient(echoModern.url, 'modern');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, 'serve', '--stdio', '--config', config],
      env: SERVE_BOX_OFF,
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'leaving-stdio', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } } : {},
    );
    try {
      await client.connect(transport);
      const pid = transport.pid!;
      const before = (await observer.callTool({ name: 'cancelled_count', arguments: {} }))
        .structuredContent as {
        cancelled: number;
      };
      await new Promise<void>((resolve) => {
        void client
          .callTool(
            { name: 'echo__slow', arguments: { ms: 8000, steps: 80 } },
            { onprogress: () => resolve() },
          )
          .catch(() => {});
      });
      await client.close();
      const cancelled = async () =>
        (
          (await observer.callTool({ name: 'cancelled_count', arguments: {} })).structuredContent as {
            cancelled: number;
          }
        ).cancelled;
      await waitUntil(
        async () => (await cancelled()) === before.cancelled + 1,
        'until (await cancelled()) === before.cancelled + 1',
      );
      await waitUntil(() => !isAlive(pid), 'until !isAlive(pid)', 10_000);
    } finally {
      await client.close().catch(() => {});
      await observer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
