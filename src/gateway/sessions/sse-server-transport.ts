import {
  type AuthInfo,
  type JSONRPCMessage,
  type MessageExtraInfo,
  parseJSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';

/** How often a comment line keeps an idle event stream (and the proxies on its way) open. */
const KEEP_ALIVE_MS = 15_000;

const encoder = new TextEncoder();

/**
 * The server side of one 2024-11-05 HTTP+SSE session, as an SDK v2 {@link Transport}: the client
 * opens an event stream with `GET` ({@link stream}); its first event, `endpoint`, names the URL
 * (with the session id) the client POSTs its messages to ({@link receive}); everything the
 * server sends goes down the event stream as `event: message`. The wire format is the SDK v1
 * `SSEServerTransport`'s (the one every HTTP+SSE client speaks), on web-standard streams.
 */
export class SseServerTransport implements Transport {
  readonly sessionId: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly #endpoint: string;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #keepAlive: NodeJS.Timeout | undefined;
  #closed = false;

  /** `endpoint`: the path (and query) the client is told to POST to, session id included. */
  constructor(sessionId: string, endpoint: string) {
    this.sessionId = sessionId;
    this.#endpoint = endpoint;
  }

  /** The event stream's `Response` (once): the `endpoint` event first, then the server's messages. */
  stream(signal?: AbortSignal): Response {
    if (this.#controller !== undefined || this.#closed)
      throw new Error('the event stream of this SSE session was opened already');
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        controller.enqueue(encoder.encode(`event: endpoint\ndata: ${this.#endpoint}\n\n`));
      },
      cancel: () => {
        void this.close();
      },
    });
    signal?.addEventListener('abort', () => void this.close(), { once: true });
    this.#keepAlive = setInterval(() => this.#write(': keepalive\n\n'), KEEP_ALIVE_MS);
    this.#keepAlive.unref();
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      },
    });
  }

  /**
   * A POSTed body (one message or a batch), already parsed: each message is checked and handed
   * to the server with `authInfo`, the caller of this POST (its handlers then decide on the
   * token presented now, not the one that opened the stream). Answers 202 once they are handed
   * on (the answers travel on the event stream), 400 for a body that is not JSON-RPC, 410 when
   * the event stream is gone.
   */
  receive(body: unknown, authInfo?: AuthInfo): Response {
    if (this.#closed || this.#controller === undefined)
      return new Response('Gone: the event stream of this session is closed\n', { status: 410 });
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((message) => parseJSONRPCMessage(message));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return new Response('Bad Request: the body is not a JSON-RPC message\n', { status: 400 });
    }
    const extra: MessageExtraInfo | undefined = authInfo === undefined ? undefined : { authInfo };
    for (const message of messages) this.onmessage?.(message, extra);
    return new Response('Accepted\n', { status: 202 });
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('the SSE session is closed');
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  #write(text: string): void {
    try {
      this.#controller?.enqueue(encoder.encode(text));
    } catch {
      // The stream was cancelled under us: close() follows from its cancel.
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    try {
      this.#controller?.close();
    } catch {
      // Already closed or cancelled.
    }
    this.onclose?.();
  }
}
