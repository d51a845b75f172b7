import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** A loopback HTTP listener that receives one authorization redirect (RFC 8252 §7.3). */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUrl: string;
  /** Resolves with the callback's query parameters once a request with the expected `state` arrives. */
  readonly callback: Promise<URLSearchParams>;
  /**
   * The link a person is handed for the authorization URL `url` (default `url` itself): the
   * gateway hands a link of its own that starts with a login, so that only its starter completes it.
   */
  present?(url: URL): URL;
  close(): Promise<void>;
}

const page = (title: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${title}. You may close this window.</p>\n`;

/** What a redirect to the callback means: the page to answer with, and how the flow goes on. */
export interface CallbackAnswer {
  status: number;
  html: string;
  /** The code arrived (`params`), the authorization was refused (`error`), or nothing (a stray request). */
  outcome?: { params: URLSearchParams } | { error: McpToolsError };
}

/**
 * Reads one authorization redirect (RFC 6749 §4.1.2) against the `state` the flow sent: a
 * wrong state, or no code, is answered and otherwise ignored, so a stray request cannot end the
 * flow; an `error` from the authorization server ends it without its text (RFC 9207 §4).
 */
export function answerCallback(params: URLSearchParams, expected: string | undefined): CallbackAnswer {
  if (expected !== undefined && params.get('state') !== expected)
    return { status: 400, html: page('Authorization failed: unexpected state') };
  if (params.get('error') !== null)
    return {
      status: 400,
      html: page('Authorization was refused'),
      outcome: {
        error: new McpToolsError('PERMISSION_DENIED', 'the authorization server refused the authorization'),
      },
    };
  if (!params.get('code')) return { status: 400, html: page('Authorization failed: no code') };
  return { status: 200, html: page('Authorization complete'), outcome: { params } };
}

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
    const answer = answerCallback(url.searchParams, options.state());
    response.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.html);
    if (answer.outcome === undefined) return;
    if ('error' in answer.outcome) settle.reject(answer.outcome.error);
    else settle.resolve(answer.outcome.params);
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
