import { defaultMaxListeners, getMaxListeners, setMaxListeners } from 'node:events';
import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { Agent, Dispatcher } from 'undici';
import { BufferedResponse } from './buffered-response.js';
import { checkRequestSize, type SizeLimits, sizeLimitedFetch, tooLarge } from './size-limited-fetch.js';
import { SseCollapser } from './sse-collapse.js';
import { limitSseEvents } from './sse-event-limiter.js';

/** A `fetch` for one server's Streamable HTTP transport, and the close of its connections. */
export interface PooledHttpFetch {
  fetch: FetchLike;
  /** Destroys every connection (idle or in use); later requests go through the global `fetch`. */
  close(): void;
}

/** Connections one server may hold at once (in-flight requests, SSE streams); more requests queue. */
const MAX_CONNECTIONS = 256;
/** An idle connection is closed after this long (or sooner, when the server's `Keep-Alive` hint says so). */
const IDLE_MS = 4_000;
/** Waiting this long for the headers, or between two body chunks, fails the request (as `fetch`). */
const INACTIVITY_MS = 300_000;
/** After the response event, how long the end of its stream may take before the rest is streamed. */
const END_GRACE_MS = 50;
/**
 * The largest SSE answer collapsed into JSON. Collapsing saves a fixed cost per response (the
 * SDK's piped streams), nothing per byte, so a bigger answer is streamed: its text is never held
 * twice (bytes and parsed), which kept an oversized one's peak memory over `fetch`'s.
 */
const COLLAPSE_MAX_BYTES = 1024 * 1024;
/**
 * Abort listeners one signal may carry before Node warns of a leak: the transport's one signal
 * goes with every request in flight, each holding a listener until it ends (`fetch` raises it
 * the same way, to the same number).
 */
const SIGNAL_MAX_LISTENERS = 1500;
const NO_BODY = new Set([101, 204, 205, 304]);
const ignore = (): void => undefined;

type Exchange = {
  resolve(response: Response): void;
  fail(error: unknown): void;
};
type Init = { status: number; statusText: string; headers: Headers };

/**
 * A `fetch` for the SDK's Streamable HTTP client transport, over an undici `Agent` of its own
 * (keep-alive, timeouts, abort; closed by {@link PooledHttpFetch.close}). The transport's POSTs
 * take the fast path: `fetch` builds a WHATWG request, response and body stream per call, and the
 * SDK pipes a Server-Sent Events answer through two more streams; here undici's `request()` body
 * is read as plain Node chunks, and an SSE answer that is just the response to the request (the
 * common case, see {@link SseCollapser}) is handed over as a JSON body, which the SDK parses
 * directly. Every other answer (progress, a server request, a resumable stream, more than the
 * size limit) is streamed to the SDK unchanged, each event capped ({@link limitSseEvents}). Size
 * limits hold on both paths: a request body over `maxRequestBytes` is refused, a JSON body or SSE
 * answer over `maxResponseBytes` is not read past the limit.
 *
 * The transport's standalone `GET` stream goes over the same `Agent`, streamed as it comes: the
 * server must see it open before the requests the transport sends after it, as it would over
 * one `fetch`. Over a `fetch` of its own it needs a new connection (and, on Node 20, the load
 * of `fetch` itself) while the next POSTs reuse warm ones, so under load a `tools/call` could
 * reach the server before the stream did, and a request the server sent on that stream for the
 * call (an elicitation) was lost: the call hung. The `DELETE` that ends a session goes over it
 * too (a warm connection, no `fetch` to load at close). Anything else (redirects to follow,
 * OAuth requests, non-string bodies) goes to {@link sizeLimitedFetch} over the global `fetch`.
 */
export function createPooledHttpFetch(limits: SizeLimits | undefined): PooledHttpFetch {
  const caps = limits ?? {
    maxRequestBytes: Number.POSITIVE_INFINITY,
    maxResponseBytes: Number.POSITIVE_INFINITY,
  };
  const fallback: FetchLike =
    limits === undefined ? (url, init) => fetch(url, init) : sizeLimitedFetch(limits);
  // undici is loaded by the first POST (about 17 MiB and 200 ms to import), not by mcptools'.
  let agent: Promise<Agent> | undefined;
  let closed = false;

  const pooled: FetchLike = (input, init) => {
    const url = typeof input === 'string' ? new URL(input) : input;
    const body = init?.body;
    const method = init?.method;
    if (
      closed ||
      !(method === 'POST' ? typeof body === 'string' : isEndOrStream(init)) ||
      init?.redirect !== 'manual' ||
      !(url instanceof URL) ||
      (url.protocol !== 'http:' && url.protocol !== 'https:')
    ) {
      return fallback(input, init);
    }
    try {
      checkRequestSize(body, caps);
    } catch (error) {
      return Promise.reject(error);
    }
    agent ??= import('undici').then(
      ({ Agent }) =>
        new Agent({
          connections: MAX_CONNECTIONS,
          keepAliveTimeout: IDLE_MS,
          keepAliveMaxTimeout: IDLE_MS,
          headersTimeout: INACTIVITY_MS,
          bodyTimeout: INACTIVITY_MS,
        }),
    );
    return agent.then((ready) => send(ready, url, init, caps.maxResponseBytes));
  };

  return {
    fetch: pooled,
    close() {
      closed = true;
      agent?.then((ready) => ready.destroy()).catch(ignore);
    },
  };
}

/**
 * `true` for the transport's `DELETE` (the end of a session) and its standalone stream: a
 * `GET` that accepts `text/event-stream`; neither has a body. OAuth and other `GET`s keep the
 * global `fetch`.
 */
function isEndOrStream(init: RequestInit | undefined): boolean {
  if (init?.body != null) return false;
  if (init?.method === 'DELETE') return true;
  if (init?.method !== 'GET') return false;
  return (new Headers(init.headers).get('accept') ?? '').toLowerCase().includes('text/event-stream');
}

/** The request's headers, with the `user-agent` Node's `fetch` sends when none is given. */
function requestHeaders(init: RequestInit): Iterable<[string, string]> {
  const headers = new Headers(init.headers);
  if (!headers.has('user-agent')) headers.set('user-agent', 'node');
  return headers as unknown as Iterable<[string, string]>;
}

function responseInit(status: number, given: Dispatcher.ResponseData['headers']): Init {
  const headers = new Headers();
  for (const [name, value] of Object.entries(given)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.append(name, value);
  }
  return { status, statusText: STATUS_CODES[status] ?? '', headers };
}

/** The body as sent, or decompressed when the server compressed it anyway (none is asked for). */
function decoded(body: Readable, encoding: string): Readable {
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return body;
  body.on('error', (error) => decoder.destroy(error));
  return body.pipe(decoder);
}

/** A failure as `fetch` reports it: the abort reason, else `TypeError('fetch failed' | 'terminated')`. */
function fetchError(error: unknown, signal: AbortSignal | undefined, message: string): unknown {
  if (signal?.aborted) return signal.reason;
  return new TypeError(message, { cause: error });
}

/** Sends a `POST` of a JSON-RPC message, the `GET` of the standalone stream or the `DELETE`. */
async function send(agent: Agent, url: URL, init: RequestInit, maxBytes: number): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal !== undefined && getMaxListeners(signal) === defaultMaxListeners) {
    setMaxListeners(SIGNAL_MAX_LISTENERS, signal);
  }
  const method = init.method as 'POST' | 'GET' | 'DELETE';
  let data: Dispatcher.ResponseData;
  try {
    data = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers: requestHeaders(init),
      body: method === 'POST' ? (init.body as string) : null,
      signal,
    });
  } catch (error) {
    throw fetchError(error, signal, 'fetch failed');
  }
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let onStreamError: (error: unknown) => void = ignore;
    const exchange: Exchange = {
      resolve(response) {
        if (settled) return;
        settled = true;
        resolve(response);
      },
      fail(error) {
        if (settled) return onStreamError(error);
        settled = true;
        reject(error);
      },
    };
    onStreamError = answer(data, exchange, maxBytes, signal, method === 'POST');
  });
}

/**
 * Reads the response; returns how to fail its body once the `Response` is out. An SSE answer
 * to a `POST` may be collapsed into JSON (`collapse`); the `GET` stream is always streamed.
 */
function answer(
  { statusCode: status, headers, body }: Dispatcher.ResponseData,
  exchange: Exchange,
  maxBytes: number,
  signal: AbortSignal | undefined,
  collapse: boolean,
): (error: unknown) => void {
  const init = responseInit(status, headers);
  const encoding = (init.headers.get('content-encoding') ?? '').trim().toLowerCase();
  const source = decoded(body, encoding);
  // A body cut short (the connection closed before its end) fails as `fetch` fails it.
  source.on('error', (error) => exchange.fail(fetchError(error, signal, 'terminated')));
  if (NO_BODY.has(status)) {
    source.resume();
    exchange.resolve(new Response(null, init));
    return ignore;
  }
  const type = init.headers.get('content-type') ?? '';
  if (status >= 200 && status < 300 && type.toLowerCase().includes('text/event-stream')) {
    return collapseOrStream(source, init, exchange, maxBytes, collapse);
  }
  const declared = Number(init.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    body.destroy();
    exchange.fail(tooLarge('response', declared, maxBytes, 'maxResponseBytes'));
    return ignore;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  source.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      exchange.fail(tooLarge('response', undefined, maxBytes, 'maxResponseBytes'));
      return;
    }
    chunks.push(chunk);
  });
  source.on('end', () => {
    if (size > maxBytes) return;
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    exchange.resolve(bytes.length === 0 ? new Response(null, init) : new BufferedResponse(bytes, init));
  });
  return ignore;
}

function collapseOrStream(
  source: Readable,
  init: Init,
  exchange: Exchange,
  maxBytes: number,
  collapse: boolean,
): (error: unknown) => void {
  const collapser = new SseCollapser(Math.min(maxBytes, COLLAPSE_MAX_BYTES));
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let grace: NodeJS.Timeout | undefined;
  let ended = false;
  let failed: unknown;

  const stream = () => {
    if (controller !== undefined || failed !== undefined) return;
    clearTimeout(grace);
    const replay = new ReadableStream<Uint8Array>(
      {
        start(started) {
          controller = started;
          for (const chunk of collapser.chunks) started.enqueue(chunk);
          collapser.chunks.length = 0;
          if (ended) started.close();
        },
        pull() {
          source.resume();
        },
        cancel() {
          source.destroy();
        },
      },
      { highWaterMark: 0 },
    );
    exchange.resolve(new Response(limitSseEvents(replay, maxBytes), init));
  };
  if (!collapse) stream();

  source.on('data', (chunk: Buffer) => {
    if (controller !== undefined) {
      controller.enqueue(chunk);
      if ((controller.desiredSize ?? 0) <= 0) source.pause();
      return;
    }
    const state = collapser.push(chunk);
    if (state === 'stream') stream();
    else if (state === 'answered' && grace === undefined) {
      // The server ends the stream after the response; one that keeps it open gets it streamed.
      grace = setTimeout(stream, END_GRACE_MS);
    }
  });
  source.on('end', () => {
    ended = true;
    if (controller !== undefined) {
      if (failed === undefined) controller.close();
      return;
    }
    clearTimeout(grace);
    if (collapser.state === 'answered') {
      const { text, value } = collapser.collapsed();
      init.headers.set('content-type', 'application/json');
      init.headers.delete('content-length');
      exchange.resolve(new BufferedResponse(text, init, { value }));
    } else {
      stream();
    }
  });
  return (error) => {
    if (failed !== undefined) return;
    failed = error;
    clearTimeout(grace);
    controller?.error(error);
  };
}
