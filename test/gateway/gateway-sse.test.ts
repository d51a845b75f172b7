import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * The 2024-11-05 HTTP+SSE transport beside /mcp (GET /sse + POST /messages), for the
 * clients that still default to it (OpenClaw's `mcp add --url`, the MCP Inspector in SSE mode,
 * the SDK v1 `SSEClientTransport`), behind the same front door as /mcp.
 */
const TOKEN = 'sse-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };

let running: RunningGateway;
let base: URL;

beforeAll(async () => {
  running = await startGateway(
    {
      servers: { echo: stdioFixture('echo') },
      gateway: { profiles: { tight: { tools: { allow: ['echo__echo'] } } } },
    },
    { token: TOKEN, maxBodyBytes: 64 * 1024 },
  );
  base = new URL(running.url);
});

afterAll(async () => {
  await running?.close();
});

/** An SDK v1 client over HTTP+SSE at `path`, presenting the token. */
async function sseClient(path = '/sse'): Promise<Client> {
  const client = new Client({ name: 'sse-test', version: '1.0.0' });
  await client.connect(
    new SSEClientTransport(new URL(path, base), {
      requestInit: { headers: auth },
    }),
  );
  return client;
}

const textOf = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content[0]?.text ?? '') as string;

describe('the HTTP+SSE transport', () => {
  it('lists and calls tools with the SDK v1 SSE client, with progress', async () => {
    const client = await sseClient();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo__echo');
      expect(textOf(await client.callTool({ name: 'echo__echo', arguments: { text: 'over sse' } }))).toBe(
        'over sse',
      );
      const progress: number[] = [];
      const slow = await client.callTool(
        { name: 'echo__slow', arguments: { ms: 300, steps: 3 } },
        undefined,
        {
          onprogress: (update) => progress.push(update.progress),
        },
      );
      expect(textOf(slow)).toContain('slept 300ms');
      expect(progress).toEqual([1, 2, 3]);
    } finally {
      await client.close();
    }
  });

  it('cancels a call the client cancelled, upstream too', async () => {
    const client = await sseClient();
    const count = async () =>
      (
        (await client.callTool({ name: 'echo__cancelled_count', arguments: {} })).structuredContent as {
          cancelled: number;
        }
      ).cancelled;
    try {
      const before = await count();
      const abort = new AbortController();
      const call = client.callTool({ name: 'echo__slow', arguments: { ms: 5000, steps: 50 } }, undefined, {
        signal: abort.signal,
        onprogress: () => abort.abort(),
      });
      await expect(call).rejects.toThrow();
      await waitUntil(async () => (await count()) === before + 1, 'until (await count()) === before + 1');
    } finally {
      await client.close();
    }
  });

  it('serves an HTTP+SSE client given the Streamable HTTP URL (GET /mcp without a session)', async () => {
    const client = await sseClient('/mcp');
    try {
      expect(textOf(await client.callTool({ name: 'echo__echo', arguments: { text: 'at /mcp' } }))).toBe(
        'at /mcp',
      );
    } finally {
      await client.close();
    }
  });

  it('serves a profile at /sse/<profile>', async () => {
    const client = await sseClient('/sse/tight');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['echo__echo']);
    } finally {
      await client.close();
    }
  });

  it('ends the session (and its calls) when the event stream closes', async () => {
    const stream = await fetch(new URL('/sse', base), {
      headers: { ...auth, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = (await reader.read()).value ?? '';
    const endpoint = /^event: endpoint\ndata: (\S+)\n\n/.exec(first)?.[1];
    expect(endpoint).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    const post = (body: unknown, headers: Record<string, string> = auth) =>
      fetch(new URL(endpoint!, base), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(202);
    expect((await reader.read()).value).toContain('"id":1');
    // Not JSON-RPC: refused, the session lives on.
    expect((await post({ hello: 'world' })).status).toBe(400);
    await reader.cancel();
    await waitUntil(
      async () => (await post({ jsonrpc: '2.0', id: 2, method: 'ping' })).status === 404,
      "until (await post({ jsonrpc: '2.0', id: 2, method: 'ping' })).status === 404",
    );
  });

  it('refuses a client without the token, a foreign Origin, and another session id', async () => {
    expect((await fetch(new URL('/sse', base), { headers: { accept: 'text/event-stream' } })).status).toBe(
      401,
    );
    const foreign = await fetch(new URL('/sse', base), {
      headers: { ...auth, accept: 'text/event-stream', origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const posted = await fetch(new URL('/messages?sessionId=00000000-0000-4000-8000-000000000000', base), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(posted.status).toBe(404);
    const unauthorized = await fetch(new URL('/messages?sessionId=x', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthorized.status).toBe(401);
    // The body cap of /mcp: a declared length over it is refused before anything is read.
    const big = await fetch(new URL('/messages?sessionId=x', base), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'ping', params: { pad: 'x'.repeat(100_000) } }),
    });
    expect(big.status).toBe(413);
    await expect(
      new Client({ name: 'no-token', version: '1.0.0' }).connect(
        new SSEClientTransport(new URL('/sse', base)),
      ),
    ).rejects.toThrow(/401|Unauthorized/);
  });
});

describe('the session cap', () => {
  it('is shared with the Streamable HTTP sessions: the least recently used idle one is ended', async () => {
    const small = await startGateway({ servers: {} }, { maxSessions: 1 });
    try {
      const open = async () => {
        const response = await fetch(new URL('/sse', small.url), {
          headers: { accept: 'text/event-stream' },
        });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        expect((await reader.read()).value).toMatch(/^event: endpoint/);
        return reader;
      };
      const first = await open();
      const second = await open();
      // The first session was ended to make room: its stream ends.
      expect((await first.read()).done).toBe(true);
      await second.cancel();
    } finally {
      await small.close();
    }
  });
});

const require = createRequire(import.meta.url);
const inspector = join(
  require.resolve('@modelcontextprotocol/inspector-cli/package.json'),
  '..',
  'build',
  'index.js',
);

function inspect(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        inspector,
        new URL('/sse', base).href,
        '--transport',
        'sse',
        '--header',
        `Authorization: Bearer ${TOKEN}`,
        ...args,
      ],
      { timeout: 90_000, maxBuffer: 16 * 1024 * 1024, cwd: dirname(inspector) },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      },
    );
  });
}

describe('the MCP Inspector CLI in SSE mode', { timeout: 180_000 }, () => {
  it('lists and calls tools through /sse', async () => {
    const listed = (await inspect(['--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('echo__echo');
    const called = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'echo__echo',
      '--tool-arg',
      'text=inspected over sse',
    ]);
    expect(textOf(called)).toBe('inspected over sse');
  });
});
