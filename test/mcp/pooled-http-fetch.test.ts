import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BufferedResponse } from '../../src/mcp/buffered-response.js';
import { createPooledHttpFetch } from '../../src/mcp/pooled-http-fetch.js';
import { SseCollapser } from '../../src/mcp/sse-collapse.js';

const response = (id: number, text = 'hi') =>
  JSON.stringify({ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id });
const progress = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: 1 },
});
const event = (data: string) => `event: message\ndata: ${data}\n\n`;

function collapse(chunks: string[], maxBytes = 1024 * 1024): SseCollapser {
  const collapser = new SseCollapser(maxBytes);
  for (const chunk of chunks) collapser.push(Buffer.from(chunk));
  return collapser;
}

describe('SseCollapser', () => {
  it('collapses an answer that is just the response, whatever the chunking and line endings', () => {
    const whole = event(response(1));
    const crlf = whole.replaceAll('\n', '\r\n');
    const cr = `event: message\rdata: ${response(1)}\n\n`;
    for (const chunks of [[whole], whole.split(''), [crlf], crlf.split(''), [cr]]) {
      const collapser = collapse(chunks);
      expect(collapser.state).toBe('answered');
      expect(collapser.collapsed().text).toBe(response(1));
      expect(collapser.collapsed().value).toEqual(JSON.parse(response(1)));
    }
  });

  it('keeps notifications sent with the response, in order, as a JSON array', () => {
    const collapser = collapse([`: comment\n\n${event(progress)}${event(response(2))}`]);
    expect(collapser.state).toBe('answered');
    expect(collapser.collapsed().value).toEqual([JSON.parse(progress), JSON.parse(response(2))]);
  });

  it('joins multi-line data and reads UTF-8 split across chunks', () => {
    const bytes = Buffer.from(`data: {"jsonrpc":"2.0","id":3,\ndata: "result":{"t":"żółw"}}\n\n`);
    const collapser = new SseCollapser(1024);
    for (let index = 0; index < bytes.length; index++) collapser.push(bytes.subarray(index, index + 1));
    expect(collapser.state).toBe('answered');
    expect(collapser.collapsed().value).toEqual({ jsonrpc: '2.0', id: 3, result: { t: 'żółw' } });
  });

  it.each([
    ['a message waiting with no response yet', [event(progress)]],
    ['a resumable event (id)', [`id: 7\n${event(response(1))}`]],
    ['a retry field', [`retry: 10\n\n${event(response(1))}`]],
    ['an unknown field', [`foo: 1\n${event(response(1))}`]],
    ['data that is not JSON', ['data: nope\n\n']],
    ['a JSON-RPC batch', [`data: [${response(1)}]\n\n`]],
    ['bytes after the response', [`${event(response(1))}event: mess`]],
    ['more than maxBytes', [event(response(1, 'x'.repeat(200)))], 100],
  ] as [string, string[], number?][])('streams the answer on %s', (_name, chunks, max) => {
    expect(collapse(chunks, max).state).toBe('stream');
  });

  it('waits on a partial event, and keeps every byte for a replay', () => {
    const whole = event(response(4));
    const collapser = collapse([whole.slice(0, 20)]);
    expect(collapser.state).toBe('more');
    collapser.push(Buffer.from(whole.slice(20)));
    expect(Buffer.concat(collapser.chunks).toString()).toBe(whole);
  });
});

describe('BufferedResponse', () => {
  it('reads like any Response: text, json, body stream, clone, bodyUsed', async () => {
    const init = { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json' } };
    const parsed = new BufferedResponse('{"a":1}', init, { value: { a: 1 } });
    expect([parsed.status, parsed.statusText, parsed.ok, parsed.headers.get('content-type')]).toEqual([
      201,
      'Created',
      true,
      'application/json',
    ]);
    const copy = parsed.clone();
    expect(await parsed.json()).toEqual({ a: 1 });
    expect(parsed.bodyUsed).toBe(true);
    await expect(parsed.text()).rejects.toThrow(TypeError);
    expect(await copy.text()).toBe('{"a":1}');
    const bytes = new BufferedResponse(Buffer.from('{"b":[2]}'), init);
    expect(await new Response(bytes.body).json()).toEqual({ b: [2] });
    expect(bytes.bodyUsed).toBe(true);
    await expect(new BufferedResponse('nope', init).json()).rejects.toThrow(SyntaxError);
  });
});

describe('createPooledHttpFetch against a raw HTTP server', () => {
  let server: Server;
  let url: URL;
  const sockets = new Set<Socket>();
  let connections = 0;
  let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void = () => {};

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => handler(req, res, body));
    });
    server.keepAliveTimeout = 30_000;
    server.on('connection', (socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (id: number): RequestInit => ({
    method: 'POST',
    redirect: 'manual',
    headers: new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    }),
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo' } }),
  });
  const sse = (res: ServerResponse) =>
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });

  it('hands a plain SSE answer over as JSON, reusing keep-alive sockets, all closed by close()', async () => {
    handler = (_req, res, body) => {
      sse(res);
      res.end(event(response(JSON.parse(body).id)));
    };
    const pool = createPooledHttpFetch(undefined);
    const before = connections;
    const signal = new AbortController().signal;
    for (let id = 1; id <= 20; id++) {
      const answer = await pool.fetch(url, { ...post(id), signal });
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('mcp-session-id')).toBe('s1');
      expect(await answer.json()).toEqual(JSON.parse(response(id)));
    }
    // 20 requests, at most 2 connections: undici reuses a socket one event-loop turn after its
    // response ends, so a caller that asks again at once may open a second one.
    expect(connections - before).toBeGreaterThanOrEqual(1);
    expect(connections - before).toBeLessThanOrEqual(2);
    // One long-lived signal for every request (the transport's): no listener is left on it.
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(sockets.size).toBe(connections - before);
    pool.close();
    await expect.poll(() => sockets.size, { message: 'sockets the pool left open after close()' }).toBe(0);
  });

  it('takes 50 requests in flight on one signal without a listener-leak warning, and leaves none', async () => {
    handler = (_req, res, body) => {
      sse(res);
      res.end(event(response(JSON.parse(body).id)));
    };
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const pool = createPooledHttpFetch(undefined);
    const signal = new AbortController().signal;
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, index) =>
          (await pool.fetch(url, { ...post(index), signal })).json(),
        ),
      );
      expect(answers).toEqual(Array.from({ length: 50 }, (_, index) => JSON.parse(response(index))));
      // A warning is emitted on the next tick: let it come if it is coming.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
      pool.close();
    }
  });

  it('streams an answer whose stream stays open after the response, and delivers what follows', async () => {
    let finish: () => void = () => {};
    handler = (_req, res, body) => {
      sse(res);
      res.write(event(response(JSON.parse(body).id)));
      finish = () => res.end(event(progress));
    };
    const pool = createPooledHttpFetch(undefined);
    try {
      const answer = await pool.fetch(url, post(5));
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      const reader = answer.body!.getReader();
      expect(Buffer.from((await reader.read()).value!).toString()).toBe(event(response(5)));
      finish();
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += Buffer.from(value).toString();
      }
      expect(rest).toBe(event(progress));
    } finally {
      pool.close();
    }
  });

  it('streams an answer over 1 MiB instead of collapsing it, under a larger maxResponseBytes', async () => {
    const big = response(16, 'x'.repeat(1024 * 1024));
    handler = (_req, res) => {
      sse(res);
      res.end(event(big));
    };
    const pool = createPooledHttpFetch({ maxResponseBytes: 10 * 1024 * 1024, maxRequestBytes: 1000 });
    try {
      const answer = await pool.fetch(url, post(16));
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      expect(await answer.text()).toBe(event(big));
    } finally {
      pool.close();
    }
  });

  it('streams progress as it comes, before the response', async () => {
    let finish: () => void = () => {};
    handler = (_req, res, body) => {
      sse(res);
      res.write(event(progress));
      finish = () => res.end(event(response(JSON.parse(body).id)));
    };
    const pool = createPooledHttpFetch(undefined);
    try {
      const answer = await pool.fetch(url, post(6));
      const reader = answer.body!.getReader();
      expect(Buffer.from((await reader.read()).value!).toString()).toBe(event(progress));
      finish();
      expect(Buffer.from((await reader.read()).value!).toString()).toBe(event(response(6)));
    } finally {
      pool.close();
    }
  });

  it('carries the standalone GET stream and the DELETE too, the stream as it comes; close() ends it', async () => {
    let push: (text: string) => void = () => {};
    let closed: Promise<unknown> = Promise.resolve();
    const seen: string[] = [];
    handler = (req, res) => {
      // Node's `fetch` adds `sec-fetch-mode`; the pool sends the transport's headers only.
      seen.push(`${req.method} ${req.headers['mcp-session-id']} ${req.headers['sec-fetch-mode'] ?? '-'}`);
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      closed = new Promise((resolve) => req.socket.once('close', resolve));
      sse(res);
      res.write(event(progress));
      push = (text) => res.write(text);
    };
    const pool = createPooledHttpFetch(undefined);
    const stream = await pool.fetch(url, {
      method: 'GET',
      redirect: 'manual',
      headers: { accept: 'text/event-stream', 'mcp-session-id': 's1' },
    });
    expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const reader = stream.body!.getReader();
    const next = async () => Buffer.from((await reader.read()).value!).toString();
    expect(await next()).toBe(event(progress));
    push(event(response(15)));
    expect(await next()).toBe(event(response(15)));
    const ended = await pool.fetch(url, {
      method: 'DELETE',
      redirect: 'manual',
      headers: { 'mcp-session-id': 's1' },
    });
    expect([ended.status, await ended.text()]).toEqual([200, '']);
    expect(seen).toEqual(['GET s1 -', 'DELETE s1 -']);
    pool.close();
    await closed;
    await expect(reader.read()).rejects.toThrow();
  });

  it('enforces maxResponseBytes on JSON bodies and SSE events, and maxRequestBytes', async () => {
    const pool = createPooledHttpFetch({ maxResponseBytes: 200, maxRequestBytes: 1000 });
    try {
      handler = (_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(500));
      await expect(pool.fetch(url, post(7))).rejects.toThrow('200 B limit (maxResponseBytes)');
      handler = (_req, res) => {
        sse(res);
        res.end(event(response(8, 'x'.repeat(500))));
      };
      const answer = await pool.fetch(url, post(8));
      expect(await answer.text()).toContain(
        '"id":8,"error":{"code":-32603,"message":"the event is more than the 200 B limit (maxResponseBytes)"}',
      );
      await expect(pool.fetch(url, { ...post(9), body: 'x'.repeat(2000) })).rejects.toThrow(
        'maxRequestBytes',
      );
    } finally {
      pool.close();
    }
  });

  it('fails as fetch fails: fetch failed with the cause when nothing answers, terminated when a body is cut', async () => {
    const pool = createPooledHttpFetch(undefined);
    try {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const refused = await pool.fetch(new URL(`http://127.0.0.1:${port}/mcp`), post(13)).catch((e) => e);
      expect(refused).toBeInstanceOf(TypeError);
      expect([refused.message, refused.cause?.code]).toEqual(['fetch failed', 'ECONNREFUSED']);
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"jsonrpc":');
        setTimeout(() => res.destroy(), 20);
      };
      const cut = await pool.fetch(url, post(14)).catch((e) => e);
      expect(cut).toBeInstanceOf(TypeError);
      expect(cut.message).toBe('terminated');
    } finally {
      pool.close();
    }
  });

  it('decompresses a compressed body, passes error statuses through and fails on abort', async () => {
    const pool = createPooledHttpFetch(undefined);
    try {
      handler = (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync(response(10)));
      expect(await (await pool.fetch(url, post(10))).json()).toEqual(JSON.parse(response(10)));
      handler = (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      const missing = await pool.fetch(url, post(11));
      expect([missing.status, await missing.text()]).toEqual([404, 'Not found']);
      handler = () => {};
      const controller = new AbortController();
      const pending = pool.fetch(url, { ...post(12), signal: controller.signal });
      controller.abort(new Error('stop'));
      await expect(pending).rejects.toThrow('stop');
    } finally {
      pool.close();
    }
  });
});
