import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does to the next requests. */
export type FaultMode =
  | 'pass'
  /** Every request answered with this HTTP status and a short text body. */
  | { status: number }
  /**
   * Passes through, but cuts an event-stream response after its first event (or comment: an
   * SDK server sends `: keepalive` after 15 s of silence).
   */
  | 'break-sse'
  /**
   * Passes through, but ends an event-stream response after its first event as a server that
   * closes it on purpose would: with the empty result of the request (a `subscriptions/listen`
   * stream's graceful end), the connection kept.
   */
  | 'end-sse';

/** An HTTP proxy in front of a real MCP server that injects faults on demand. */
export interface FaultProxy {
  /** The proxied `/mcp` URL. */
  url: string;
  mode: FaultMode;
  /** Requests seen (each attempt, including refused ones). */
  requests: number;
  /** Event streams cut so far. */
  cut: number;
  /** When the last event stream was cut (`Date.now()`). */
  cutAt?: number;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 in front of `target` (an `http://127.0.0.1:PORT/mcp` URL). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const proxy: FaultProxy = { url: '', mode: 'pass', requests: 0, cut: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    proxy.requests++;
    const mode = proxy.mode;
    if (typeof mode === 'object') {
      req.resume();
      res.writeHead(mode.status, { 'content-type': 'text/plain' }).end(`injected ${mode.status}\n`);
      return;
    }
    const forward = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const stream = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
        if ((mode !== 'break-sse' && mode !== 'end-sse') || !stream || req.method !== 'POST') {
          answer.pipe(res);
          return;
        }
        let seen = '';
        answer.on('data', (chunk: Buffer) => {
          res.write(chunk);
          seen += chunk.toString('utf8');
          // After the first whole event: the connection drops mid-response.
          if (/\n\n/.test(seen)) {
            proxy.cut++;
            proxy.cutAt = Date.now();
            answer.destroy();
            if (mode === 'break-sse') {
              res.destroy();
              return;
            }
            const id = (JSON.parse(sent) as { id?: unknown }).id;
            const meta = { 'io.modelcontextprotocol/subscriptionId': id };
            const result = { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: meta } };
            res.end(`event: message\ndata: ${JSON.stringify(result)}\n\n`);
          }
        });
        answer.on('end', () => {
          if (!res.writableEnded) res.end();
        });
      },
    );
    forward.on('error', () => res.destroy());
    let sent = '';
    req.on('data', (chunk: Buffer) => {
      sent += chunk.toString('utf8');
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${upstream.pathname}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
