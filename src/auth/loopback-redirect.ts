import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** A loopback HTTP listener that receives one authorization redirect (RFC 8252 §7.3). */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUrl: string;
  /** Resolves with the callback's query parameters once a request with the expected `state` arrives. */
  readonly callback: Promise<URLSearchParams>;
  close(): Promise<void>;
}

const page = (title: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${title}. You may close this window.</p>\n`;

/**
 * Listens on `127.0.0.1:port` (0 = any free port) for the authorization server's redirect.
 * Only `GET /callback` with the expected `state` settles `callback`; anything else gets a 404
 * or 400 and is otherwise ignored, so a stray request cannot end the flow.
 */
export async function startLoopbackRedirect(options: {
  port?: number;
  state: () => string | undefined;
}): Promise<LoopbackRedirect> {
  let settle!: { resolve: (params: URLSearchParams) => void; reject: (error: Error) => void };
  const callback = new Promise<URLSearchParams>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A flow abandoned before its redirect must not surface as an unhandled rejection.
  callback.catch(() => undefined);
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const expected = options.state();
    if (expected !== undefined && url.searchParams.get('state') !== expected) {
      response
        .writeHead(400, { 'content-type': 'text/html' })
        .end(page('Authorization failed: unexpected state'));
      return;
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      response.writeHead(400, { 'content-type': 'text/html' }).end(page('Authorization was refused'));
      // The error text comes from whoever sent the redirect: keep it out of messages (RFC 9207 §4).
      settle.reject(
        new McpToolsError('PERMISSION_DENIED', 'the authorization server refused the authorization'),
      );
      return;
    }
    if (!url.searchParams.get('code')) {
      response.writeHead(400, { 'content-type': 'text/html' }).end(page('Authorization failed: no code'));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(page('Authorization complete'));
    settle.resolve(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    callback,
    close: () =>
      new Promise<void>((resolve) => {
        settle.reject(new McpToolsError('ABORTED', 'the authorization flow ended'));
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
