import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A web `Request` over a Node request whose body was already read (and is handed on parsed),
 * with a signal that aborts when the client goes away before the answer.
 *
 * It carries no body: the SDK is always given the parsed body (`parsedBody`) and reads nothing
 * from the request, so building a body stream (and serialising the parsed body back into it,
 * as `toWebRequest` of `@modelcontextprotocol/node` does) would be work thrown away. The signal
 * is the exchange's own `AbortController`'s: handing undici a signal to follow costs more than
 * the rest of the `Request` put together.
 */
class NodeWebRequest extends Request {
  readonly #signal: AbortSignal;

  constructor(url: string, init: RequestInit, signal: AbortSignal) {
    super(url, init);
    this.#signal = signal;
  }

  override get signal(): AbortSignal {
    return this.#signal;
  }
}

function webRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const name in req.headers) {
    // The body is not carried: its framing headers would describe bytes that are not there.
    if (name === 'content-length' || name === 'transfer-encoding' || name.startsWith(':')) continue;
    const value = req.headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new NodeWebRequest(
    `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    { method: req.method ?? 'GET', headers },
    signal,
  );
}

/** The JSON-RPC id to echo on an error answer: the body's, when it is one request's. */
function echoableId(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : null;
}

/**
 * Serves one Node request through a web-standard handler: `handle` gets a `Request` (headers,
 * method, URL and an abort signal; no body — see {@link NodeWebRequest}) and `body`, the body
 * already read and parsed, and its `Response` is written back. A JSON answer is collected and
 * written in one piece with its length (one write, no chunked framing); a stream (SSE) is
 * written as it comes, honouring backpressure, and stops when the client goes away.
 */
export async function serveNodeExchange(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  handle: (request: Request, body: unknown) => Promise<Response>,
  onerror: (error: Error) => void,
): Promise<void> {
  let finished = false;
  const abort = new AbortController();
  res.on('close', () => {
    if (!finished) abort.abort();
  });
  let response: Response;
  try {
    response = await handle(webRequest(req, abort.signal), body);
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    response = Response.json(
      { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: echoableId(body) },
      { status: 500 },
    );
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body === null) {
    finished = true;
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  if (!headers['content-type']?.startsWith('text/event-stream')) {
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
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  let drained: (() => void) | undefined;
  const release = () => {
    drained?.();
    drained = undefined;
  };
  res.on('drain', release);
  abort.signal.addEventListener('abort', release, { once: true });
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (abort.signal.aborted) break;
      if (!res.write(next.value)) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          if (abort.signal.aborted) release();
        });
      }
    }
  } catch {
    // The stream failed or was cancelled: the answer ends here.
  }
  if (abort.signal.aborted) void reader.cancel().catch(() => {});
  finished = true;
  res.off('drain', release);
  res.end();
}
