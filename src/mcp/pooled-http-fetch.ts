import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FetchLike } from '@modelcontextprotocol/client';
import { BufferedResponse } from './buffered-response.js';
import { checkRequestSize, type SizeLimits, sizeLimitedFetch, tooLarge } from './size-limited-fetch.js';
import { SseCollapser } from './sse-collapse.js';
import { limitSseEvents } from './sse-event-limiter.js';

/** A `fetch` for one server's Streamable HTTP transport, and the close of its sockets. */
export interface PooledHttpFetch {
  fetch: FetchLike;
  /** Destroys every socket (idle or in use); later requests go through the global `fetch`. */
  close(): void;
}

/** Sockets one server may hold at once (in-flight requests, SSE streams); more requests queue. */
const MAX_SOCKETS = 256;
/** Idle keep-alive sockets kept per server. */
const MAX_FREE_SOCKETS = 64;
/** An idle socket is closed after this long (or sooner, when the server's `Keep-Alive` hint says so). */
const IDLE_MS = 4_000;
/** A request with no bytes either way for this long fails, as `fetch` fails it (undici's 300 s). */
const INACTIVITY_MS = 300_000;
/** After the response event, how long the end of its stream may take before the rest is streamed. */
const END_GRACE_MS = 50;
const NO_BODY = new Set([101, 204, 205, 304]);
const ignore = (): void => undefined;

type Exchange = {
  resolve(response: Response): void;
  fail(error: unknown): void;
  /** Called once the exchange is over: the body was read, streamed to its end, or failed. */
  done(): void;
};

/**
 * A `fetch` for the SDK's Streamable HTTP client transport, over `node:http` with a keep-alive
 * pool of its own (closed by {@link PooledHttpFetch.close}). The transport's POSTs take the
 * fast path: `fetch` builds a WHATWG request, response and body stream per call, and the SDK
 * pipes a Server-Sent Events answer through two more streams; here the body is read as plain
 * Node chunks, and an SSE answer that is just the response to the request (the common case, see
 * {@link SseCollapser}) is handed over as a JSON body, which the SDK parses directly. Every other
 * answer (progress, a server request, a resumable stream, more than the size limit) is streamed
 * to the SDK unchanged, each event capped ({@link limitSseEvents}). Size limits hold on both paths:
 * a request body over `maxRequestBytes` is refused, a JSON body or SSE answer over
 * `maxResponseBytes` is not read past the limit. Anything else (GET, DELETE, redirects to
 * follow, OAuth requests, non-string bodies) goes to {@link sizeLimitedFetch} over the global
 * `fetch`, as before.
 */
export function createPooledHttpFetch(limits: SizeLimits | undefined): PooledHttpFetch {
  const caps = limits ?? {
    maxRequestBytes: Number.POSITIVE_INFINITY,
    maxResponseBytes: Number.POSITIVE_INFINITY,
  };
  const fallback: FetchLike =
    limits === undefined ? (url, init) => fetch(url, init) : sizeLimitedFetch(limits);
  let http: HttpAgent | undefined;
  let https: HttpsAgent | undefined;
  let closed = false;
  const agentOptions = {
    keepAlive: true,
    maxSockets: MAX_SOCKETS,
    maxFreeSockets: MAX_FREE_SOCKETS,
    timeout: IDLE_MS,
    scheduling: 'lifo' as const,
  };

  const pooled: FetchLike = (input, init) => {
    const url = typeof input === 'string' ? new URL(input) : input;
    const body = init?.body;
    if (
      closed ||
      init?.method !== 'POST' ||
      typeof body !== 'string' ||
      init.redirect !== 'manual' ||
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
    const secure = url.protocol === 'https:';
    if (secure) https ??= new HttpsAgent(agentOptions);
    else http ??= new HttpAgent(agentOptions);
    const agent = (secure ? https : http) as HttpAgent;
    return post(url, body, init, agent, secure, caps.maxResponseBytes);
  };

  return {
    fetch: pooled,
    close() {
      closed = true;
      http?.destroy();
      https?.destroy();
    },
  };
}

function requestHeaders(init: RequestInit, body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = init.headers;
  if (given instanceof Headers) {
    given.forEach((value, name) => {
      headers[name] = value;
    });
  } else if (Array.isArray(given)) {
    for (const [name, value] of given) {
      const key = (name as string).toLowerCase();
      headers[key] = headers[key] === undefined ? String(value) : `${headers[key]}, ${value}`;
    }
  } else if (given !== undefined) {
    for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = String(value);
  }
  headers['content-length'] = String(Buffer.byteLength(body, 'utf8'));
  headers['user-agent'] ??= 'node';
  return headers;
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    headers.append(raw[index] as string, raw[index + 1] as string);
  }
  return headers;
}

/** The body as sent, or decompressed when the server compressed it anyway (none is asked for). */
function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function post(
  url: URL,
  body: string,
  init: RequestInit,
  agent: HttpAgent,
  secure: boolean,
  maxBytes: number,
): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let onStreamError: ((error: unknown) => void) | undefined;
    const exchange: Exchange = {
      resolve(response) {
        if (settled) return;
        settled = true;
        resolve(response);
      },
      fail(error) {
        if (!settled) {
          settled = true;
          exchange.done();
          reject(error);
        } else {
          onStreamError?.(error);
        }
      },
      done() {
        signal?.removeEventListener('abort', onAbort);
      },
    };
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      request.destroy();
      exchange.fail(reason);
    };
    const request = (secure ? httpsRequest : httpRequest)(
      {
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: requestHeaders(init, body),
        agent,
      },
      (res) => {
        onStreamError = answer(res, exchange, maxBytes);
      },
    );
    request.on('error', (error) => exchange.fail(fetchFailed(error)));
    request.setTimeout(INACTIVITY_MS, () =>
      request.destroy(new Error(`no data from the server for ${INACTIVITY_MS / 1000} s`)),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}

/** Reads the response; returns how to fail its body once the `Response` is out. */
function answer(res: IncomingMessage, exchange: Exchange, maxBytes: number): (error: unknown) => void {
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers: responseHeaders(res) };
  const source = decoded(res);
  // A body cut short (the socket closed before its end) is an error, not an end.
  res.on('close', () => {
    if (!res.complete) exchange.fail(new TypeError('terminated', { cause: new Error('other side closed') }));
  });
  source.on('error', (error) => exchange.fail(fetchFailed(error)));
  if (NO_BODY.has(status)) {
    source.resume();
    source.on('end', exchange.done);
    exchange.resolve(new Response(null, init));
    return ignore;
  }
  const type = init.headers.get('content-type') ?? '';
  if (status >= 200 && status < 300 && type.toLowerCase().includes('text/event-stream')) {
    return collapseOrStream(source, init, exchange, maxBytes);
  }
  const declared = Number(init.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    res.destroy();
    exchange.fail(tooLarge('response', declared, maxBytes, 'maxResponseBytes'));
    return ignore;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  source.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      exchange.fail(tooLarge('response', undefined, maxBytes, 'maxResponseBytes'));
      return;
    }
    chunks.push(chunk);
  });
  source.on('end', () => {
    exchange.done();
    if (size > maxBytes) return;
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    exchange.resolve(bytes.length === 0 ? new Response(null, init) : new BufferedResponse(bytes, init));
  });
  return ignore;
}

function collapseOrStream(
  source: Readable,
  init: { status: number; statusText: string; headers: Headers },
  exchange: Exchange,
  maxBytes: number,
): (error: unknown) => void {
  const collapser = new SseCollapser(maxBytes);
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
          exchange.done();
        },
      },
      { highWaterMark: 0 },
    );
    exchange.resolve(new Response(limitSseEvents(replay, maxBytes), init));
  };

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
    exchange.done();
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
    exchange.done();
    controller?.error(error);
  };
}
