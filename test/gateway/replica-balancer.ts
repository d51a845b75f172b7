import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the balancer passed on: where it went and what it was (`Mcp-Method`, else the HTTP method). */
export interface Routed {
  replica: string;
  what: string;
}

/**
 * A tiny load balancer for tests, in front of gateway replicas (`name → base URL`): plain
 * round robin, unless a case queues the replicas its next requests go to (`next('A', 'B')`).
 * Every exchange is streamed both ways (SSE included); `routed` records where each went.
 */
export interface ReplicaBalancer {
  /** The balancer's `/mcp` URL. */
  url: string;
  /** Where each request went, in order. */
  routed: Routed[];
  /** The replicas the next requests go to, one each, before round robin resumes. */
  next(...replicas: string[]): void;
  close(): Promise<void>;
}

export async function startReplicaBalancer(replicas: Record<string, string>): Promise<ReplicaBalancer> {
  const names = Object.keys(replicas);
  const queued: string[] = [];
  const routed: Routed[] = [];
  let turn = 0;
  const server: Server = createServer((req, res) => {
    const replica = queued.shift() ?? names[turn++ % names.length]!;
    const target = new URL(req.url ?? '/', replicas[replica]);
    routed.push({ replica, what: String(req.headers['mcp-method'] ?? req.method) });
    const upstream = httpRequest(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  // Clients keep their connection through pauses (Node's 5 s would race their reuse of it).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    routed,
    next: (...replicas) => queued.push(...replicas),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
