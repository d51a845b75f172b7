import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { HttpExchange, ReadBody } from './http-exchange.js';
import { type NodeBody, nodeBodyOf } from './node-body.js';
import { dropBody, readNodeBody } from './node-request.js';

/**
 * Request headers the view leaves out once the body was read: the body is then handed on
 * parsed, not carried, so its framing would describe bytes that are not there. Before, the
 * front door reads them (a declared body over the cap is refused unread), as from a `Request`.
 */
const BODY_FRAMING = new Set(['content-length', 'transfer-encoding']);

/**
 * A Node request's headers as a web `Headers` reads them (lower-case names, repeated values
 * joined with `, `), read in place: copying them into a `Headers` costs more than every read
 * the SDK makes of them.
 */
class NodeHeadersView {
  readonly #headers: IncomingMessage['headers'];
  /** The body was read: its framing is left out (see {@link BODY_FRAMING}). */
  bodyRead = false;

  constructor(headers: IncomingMessage['headers']) {
    this.#headers = headers;
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (this.bodyRead && BODY_FRAMING.has(key)) return null;
    const value = this.#headers[key];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.#headers).sort()) {
      const value = this.get(name);
      if (value !== null && !name.startsWith(':')) yield [name, value];
    }
  }

  keys(): IterableIterator<string> {
    return Array.from(this.entries(), ([name]) => name)[Symbol.iterator]();
  }

  values(): IterableIterator<string> {
    return Array.from(this.entries(), ([, value]) => value)[Symbol.iterator]();
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this as unknown as Headers);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/**
 * What tells a reader of an answer that its client went away: the part of an `AbortSignal` the
 * Node face and a body reader use (an `AbortSignal` is one).
 */
export interface GoneSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A {@link GoneSignal} of its own: a flag and a list, with an `AbortSignal` made only when
 * something reads {@link signal}. An `AbortController` costs several microseconds and about 2
 * KiB on Node 20 (an `EventTarget`, made transferable), and every streamed answer needs this
 * notice (the Node face's, a resumable stream's), while a request's own `signal` is seldom read.
 */
export class ClientGone implements GoneSignal {
  aborted = false;
  #listeners: (() => void)[] = [];
  #abort: AbortController | undefined;

  addEventListener(_type: 'abort', listener: () => void, _options?: { once?: boolean }): void {
    if (!this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index >= 0) this.#listeners.splice(index, 1);
  }

  /** The same notice as an `AbortSignal` (made on first read, aborted already if it fired). */
  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      this.#abort = new AbortController();
      if (this.aborted) this.#abort.abort();
    }
    return this.#abort.signal;
  }

  /** Fires once: every listener runs once, as with `{ once: true }`, then the signal (if made) aborts. */
  fire(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
    this.#abort?.abort();
  }
}

/**
 * A Node request as the gateway's routing reads it ({@link HttpExchange}), and as the SDK reads
 * it once routed: method, URL, headers and a signal that aborts when the client goes away before
 * the answer. It stands in for a web `Request` without being one: its body is read only through
 * {@link readBody} (the routing hands it on parsed, as `parsedBody`), and building an undici
 * `Request` (its headers list, its own `AbortController`, a body stream) cost more per call than
 * the rest of the face. Reading a body from it as from a `Request` fails, as reading a used
 * `Request`'s body does.
 */
class NodeRequestView implements HttpExchange {
  readonly method: string;
  readonly headers: NodeHeadersView;
  readonly pathname: string;
  readonly body = null;
  readonly bodyUsed = false;
  /** What reads the answer's body instead of its own reader (see {@link readBodyWith}). */
  bodyReader: BodyReaderOf | undefined = undefined;
  /** The body was larger than the routing's cap and left unread: the answer closes the connection. */
  bodyRefused = false;
  /** Fired when the client goes away before the answer (what the face itself watches). */
  readonly gone = new ClientGone();
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    this.method = req.method ?? 'GET';
    this.headers = new NodeHeadersView(req.headers);
    // The path from the request line alone: a `Host` header must not be able to move it.
    this.pathname = new URL(req.url ?? '/', 'http://gateway.invalid').pathname;
  }

  get request(): Request {
    return this as unknown as Request;
  }

  get target(): string {
    return this.#req.url ?? '/';
  }

  get url(): string {
    return `http://${this.#req.headers.host ?? 'localhost'}${this.#req.url ?? '/'}`;
  }

  async readBody(maxBytes: number): Promise<ReadBody> {
    const read = await readNodeBody(this.#req, maxBytes);
    this.headers.bodyRead = true;
    if ('tooLarge' in read) this.bodyRefused = true;
    return read;
  }

  setHeader(name: string, value: string): void {
    this.#res.setHeader(name, value);
  }

  /** Made on first read (or never): a signal costs several microseconds on Node 20. */
  get signal(): AbortSignal {
    return this.gone.signal;
  }

  /** The client went away before the answer. */
  clientGone(): void {
    this.gone.fire();
  }

  clone(): this {
    return this;
  }

  json(): Promise<never> {
    return Promise.reject(new TypeError('the request body was read already (it is handed on parsed)'));
  }

  text(): Promise<never> {
    return this.json();
  }
}

/** What reads a response body: the part of a stream reader the Node face uses. */
export type BodyReader = Pick<ReadableStreamDefaultReader<Uint8Array>, 'read' | 'cancel'>;

/** Makes the reader of an answer's body; `gone` aborts when the client goes away before the answer ends. */
export type BodyReaderOf = (body: ReadableStream<Uint8Array>, gone: GoneSignal) => BodyReader;

/**
 * Has the Node face read the body of `request`'s answer through `reader` as it writes it, when
 * `request` is served by the Node face (then `true`): what watches a response stream needs no
 * second web stream and `Response` around it.
 */
export function readBodyWith(request: Request, reader: BodyReaderOf): boolean {
  if (!servedByNodeFace(request)) return false;
  (request as unknown as NodeRequestView).bodyReader = reader;
  return true;
}

/** Whether `request` is served by the Node face (its answer may then carry a {@link NodeBody}). */
export function servedByNodeFace(request: Request): boolean {
  return (request as unknown) instanceof NodeRequestView;
}

/**
 * What tells that `request`'s client went away before the answer: the Node face's own notice
 * (no `AbortSignal` made for it), else the request's `signal`.
 */
export function clientGoneOf(request: Request): GoneSignal {
  return servedByNodeFace(request) ? (request as unknown as NodeRequestView).gone : request.signal;
}

/** The JSON-RPC id to echo on an error answer: the body's, when it is one request's. */
export function echoableId(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : null;
}

/**
 * Serves one Node request through the routing both faces share: `serve` gets the request as an
 * {@link HttpExchange} (its body read through the exchange, never twice), and its `Response` is
 * written back. A JSON answer is collected and written in one piece with its length (one write,
 * no chunked framing), and ends once any body left unread (a request answered before its body
 * was read) has come and been dropped, unless the body was refused as too large (then the
 * connection closes instead of taking it in); a stream (SSE) is written as it comes, honouring
 * backpressure, and stops when the client goes away.
 */
export async function serveNodeExchange(
  req: IncomingMessage,
  res: ServerResponse,
  serve: (exchange: HttpExchange) => Promise<Response>,
  onerror: (error: Error) => void,
): Promise<void> {
  let finished = false;
  const request = new NodeRequestView(req, res);
  res.on('close', () => {
    if (!finished) request.clientGone();
  });
  let response: Response;
  try {
    response = await serve(request);
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    response = Response.json(
      { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null },
      { status: 500 },
    );
  }
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Each cookie is a header of its own (iterating `Headers` yields them one by one, under one name).
  if (headers['set-cookie'] !== undefined) headers['set-cookie'] = response.headers.getSetCookie();
  // A body refused unread is not taken in: the connection ends with the answer.
  if (request.bodyRefused) headers.connection = 'close';
  const unread = () => !req.complete && !request.bodyRefused;
  const piped = nodeBodyOf(response);
  if (piped !== undefined) {
    await pipeNodeBody(res, response.status, headers, piped);
    finished = true;
    return;
  }
  if (response.body === null) {
    finished = true;
    res.writeHead(response.status, headers);
    if (unread()) await dropBody(req);
    res.end();
    return;
  }
  const reader: BodyReader = request.bodyReader?.(response.body, request.gone) ?? response.body.getReader();
  if (!String(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    // A complete answer (JSON, a page): one write with its length.
    const chunks: Uint8Array[] = [];
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    } catch (error) {
      onerror(error instanceof Error ? error : new Error(String(error)));
      finished = true;
      res.destroy();
      return;
    }
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    headers['content-length'] = String(bytes.byteLength);
    finished = true;
    res.writeHead(response.status, headers);
    if (!unread()) res.end(bytes);
    else {
      res.write(bytes);
      await dropBody(req);
      res.end();
    }
    return;
  }
  res.writeHead(response.status, headers);
  let drained: (() => void) | undefined;
  const release = () => {
    drained?.();
    drained = undefined;
  };
  res.on('drain', release);
  const gone = request.gone;
  gone.addEventListener('abort', release, { once: true });
  // Events that come together (an answer and the stream's end, a priming event and a quick
  // answer) leave in one write: corked until the turn of the event loop they came in is over.
  let corked = false;
  const uncork = () => {
    corked = false;
    if (!res.writableEnded) res.uncork();
  };
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (gone.aborted) break;
      if (!corked) {
        corked = true;
        res.cork();
        setImmediate(uncork);
      }
      if (!res.write(next.value)) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          if (gone.aborted) release();
        });
      }
    }
  } catch {
    // The stream failed or was cancelled: the answer ends here.
  }
  if (gone.aborted) void reader.cancel().catch(() => {});
  finished = true;
  res.off('drain', release);
  res.end();
}

/**
 * Writes a {@link NodeBody} as it comes, honouring backpressure; a body that breaks off ends the
 * answer with its `onBreak` bytes, or breaks it off too. Resolves once the answer is over (or
 * the client went away, which destroys the body).
 */
function pipeNodeBody(
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: NodeBody,
): Promise<void> {
  const { stream } = body;
  res.writeHead(status, headers);
  return new Promise((resolve) => {
    let over = false;
    const finish = (end: () => void) => {
      if (over) return;
      over = true;
      res.off('drain', resume);
      end();
      resolve();
    };
    const resume = () => stream.resume();
    res.on('drain', resume);
    stream.on('data', (chunk: Buffer) => {
      if (!res.write(chunk)) stream.pause();
    });
    stream.once('end', () => finish(() => res.end()));
    stream.once('close', () =>
      finish(() => {
        const tail = body.onBreak();
        if (tail === undefined) res.destroy();
        else res.end(tail);
      }),
    );
    res.once('close', () => finish(() => stream.destroy()));
  });
}
