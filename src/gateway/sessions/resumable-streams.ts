import { type EventStore, type StreamId, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { type BodyReader, ClientGone, type GoneSignal, readBodyWith } from '../../http/node-exchange.js';

/** The SDK's stream id of a session's standalone GET stream. */
const GET_STREAM = '_GET_stream';

/** The first protocol version whose clients take a priming event (an id with empty data). */
const PRIMING_VERSION = '2025-11-25';

/**
 * One POST's response stream: the calls on it are cancelled through `giveUp` (its `AbortSignal`
 * made only if the SDK reads the request's `signal`; a 2025 call watches `giveUp` itself).
 */
interface ResponseStream {
  readonly giveUp: ClientGone;
  /** The SDK's stream id, once its first event (for a 2025-11-25 client, its priming event) passed. */
  streamId?: StreamId;
  /** The look-up of `streamId` under way. */
  lookup?: Promise<void>;
  timer?: NodeJS.Timeout;
  done: boolean;
}

/**
 * `request` as the SDK should read it: another `signal` (made when first read: a signal costs
 * microseconds on Node 20, and the SDK may never read it), and maybe another protocol version
 * header. The Node face's own notice of a client gone (`gone`, what a call watches instead of
 * `signal`) is the same notice, without an `AbortSignal` made for it: a resumable stream's calls
 * outlive its connection by the grace period.
 */
function viewOf(request: Request, giveUp: ClientGone, version: string | undefined): Request {
  const headers =
    version === undefined
      ? request.headers
      : new Proxy(request.headers, {
          get(target, property) {
            if (property === 'get')
              return (name: string) =>
                name.toLowerCase() === 'mcp-protocol-version' ? version : target.get(name);
            const value = Reflect.get(target, property, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
  return new Proxy(request, {
    get(target, property) {
      if (property === 'gone') return giveUp;
      if (property === 'signal') return giveUp.signal;
      if (property === 'headers') return headers;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** How long a POST's priming event waits for the next event, so a quick answer leaves with it in one write. */
const PRIMING_HOLD_MS = 20;

/** One decoder for every chunk: a whole-chunk `decode` keeps no state between calls. */
const decoder = new TextDecoder();

/**
 * A chunk longer than this is not taken for a priming event without decoding it (a result is
 * not decoded twice). Were a store's ids this long, its priming events would go out alone, one
 * more write and nothing else.
 */
const PRIMING_MAX_BYTES = 1024;

/** Whether `chunk` is a priming event (an id, maybe a `retry`, and empty data). */
const isPrimingChunk = (chunk: Uint8Array) =>
  chunk.byteLength <= PRIMING_MAX_BYTES &&
  /^id: [^\n]*\n(?:retry: \d+\n)?data: \n\n$/.test(decoder.decode(chunk));

function joined(first: Uint8Array, second: Uint8Array): Uint8Array {
  const both = new Uint8Array(first.byteLength + second.byteLength);
  both.set(first);
  both.set(second, first.byteLength);
  return both;
}

/**
 * A reader of `body` that watches it: `ended(cut)` once it ends (`cut`: cancelled, or the client
 * gone — `signal` — before its end). A client gone cancels the body at once, so the SDK frees the
 * stream for a resumption now rather than at its next write. With `onChunk` (a POST's stream),
 * a priming event waits up to {@link PRIMING_HOLD_MS} for the next event: a quick call's answer
 * then reaches the client in the same read, so in the same write (one wake-up of the client,
 * not two).
 */
function watchedReader(
  body: ReadableStream<Uint8Array>,
  signal: GoneSignal,
  ended: (cut: boolean) => void,
  onChunk?: (chunk: Uint8Array) => void,
): BodyReader {
  const reader = body.getReader();
  let over = false;
  let first = onChunk !== undefined;
  /** A read started while a priming event waited, and not yet handed on. */
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  /** The body's end, read with a held priming event: the next read reports it. */
  let done = false;
  const finish = (cut: boolean) => {
    if (over) return;
    over = true;
    ended(cut);
  };
  const gone = () => {
    finish(true);
    void reader.cancel().catch(() => {});
  };
  if (signal.aborted) gone();
  else signal.addEventListener('abort', gone, { once: true });
  const close = (): ReadableStreamReadResult<Uint8Array> => {
    signal.removeEventListener('abort', gone);
    finish(false);
    return { done: true, value: undefined };
  };
  const read = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    if (done) return close();
    try {
      const next = pending ?? reader.read();
      pending = undefined;
      const { done: end, value } = await next;
      if (end) return close();
      if (!first || !isPrimingChunk(value)) {
        first = false;
        onChunk?.(value);
        return { done: false, value };
      }
      first = false;
      const following = reader.read();
      // Awaited by the next read; marked handled now, in case no read comes (the client left).
      following.catch(() => {});
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = await Promise.race([
        following,
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), PRIMING_HOLD_MS);
        }),
      ]);
      clearTimeout(timer);
      // Its id counts as the client's only once it is on its way (not when the client left meanwhile).
      if (over) return { done: true, value: undefined };
      onChunk?.(value);
      if (waited === undefined) pending = following;
      else if (waited.done) done = true;
      else return { done: false, value: joined(value, waited.value) };
      return { done: false, value };
    } catch (error) {
      finish(true);
      throw error;
    }
  };
  return {
    read,
    cancel(reason?: unknown) {
      finish(true);
      return reader.cancel(reason);
    },
  };
}

/** `response` with its body watched (see {@link watchedReader}), as a web `Response`. */
function watched(
  response: Response,
  signal: AbortSignal,
  ended: (cut: boolean) => void,
  onChunk?: (chunk: Uint8Array) => void,
): Response {
  if (response.body === null) {
    ended(false);
    return response;
  }
  const reader = watchedReader(response.body, signal, ended, onChunk);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The id of the first event in `chunk` (the SDK writes one whole event per chunk). */
function eventIdIn(chunk: Uint8Array): string | undefined {
  return /^id: ?(.+)$/m.exec(decoder.decode(chunk.subarray(0, 512)))?.[1];
}

/**
 * Resumable response streams for one 2025-era Streamable HTTP session, over the session's
 * {@link EventStore} (which the SDK transport is given as `eventStore`): a call whose POST
 * connection drops is not cancelled at once when its stream can be resumed: it is cancelled
 * only after `graceMs` with no resumption (`GET` with `Last-Event-ID` naming its stream), and
 * again after `graceMs` when a resumed stream drops too. A stream that dropped before its first
 * event (no priming event: a client older than 2025-11-25) has no id to resume from: its calls
 * are cancelled the moment it drops, as without an event store.
 */
export class ResumableStreams {
  /** The session's event store, as given. */
  readonly eventStore: EventStore;
  readonly #graceMs: number;
  /** Dropped streams waiting for a resumption, by the SDK's stream id. */
  readonly #waiting = new Map<StreamId, ResponseStream>();

  constructor(store: EventStore, graceMs: number) {
    this.eventStore = store;
    this.#graceMs = graceMs;
  }

  /**
   * Serves a POST of the session through `handle`: the SDK sees a request whose signal aborts
   * when the stream is given up (at once, or after the grace period), not when the connection
   * drops. `negotiated`: the version the session agreed on, which decides whether the stream is
   * primed (resumable from its start) even when the request's `MCP-Protocol-Version` names an
   * older one.
   */
  async post(
    request: Request,
    negotiated: string | undefined,
    handle: (request: Request) => Promise<Response>,
  ): Promise<Response> {
    const stream: ResponseStream = { giveUp: new ClientGone(), done: false };
    const header = request.headers.get('mcp-protocol-version');
    const version =
      negotiated !== undefined &&
      negotiated >= PRIMING_VERSION &&
      SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated) &&
      header !== null &&
      header < negotiated &&
      SUPPORTED_PROTOCOL_VERSIONS.includes(header)
        ? negotiated
        : undefined;
    const response = await handle(viewOf(request, stream.giveUp, version));
    const ended = (cut: boolean) => {
      if (cut) this.#dropped(stream);
      else stream.done = true;
    };
    const onChunk = (chunk: Uint8Array) => {
      if (stream.lookup !== undefined) return;
      const eventId = eventIdIn(chunk);
      if (eventId === undefined) return;
      stream.lookup = Promise.resolve(this.eventStore.getStreamIdForEventId?.(eventId)).then(
        (streamId) => {
          if (streamId !== GET_STREAM) stream.streamId = streamId;
        },
        () => {},
      );
    };
    // The Node face reads the body through the watching reader as it writes it: no second web
    // stream and `Response` per call. Any other face (a fetch handler) gets a watched `Response`.
    if (
      response.body !== null &&
      readBodyWith(request, (body, signal) => watchedReader(body, signal, ended, onChunk))
    )
      return response;
    return watched(response, request.signal, ended, onChunk);
  }

  /** Serves a GET through `handle`; one that resumed a dropped stream restarts its grace when it drops too. */
  async get(request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
    const lastEventId = request.headers.get('last-event-id');
    const streamId = lastEventId ? await this.eventStore.getStreamIdForEventId?.(lastEventId) : undefined;
    const response = await handle(request);
    const stream = streamId === undefined ? undefined : this.#waiting.get(streamId);
    if (stream === undefined || response.status !== 200) return response;
    clearTimeout(stream.timer);
    stream.timer = undefined;
    this.#waiting.delete(streamId!);
    return watched(response, request.signal, (cut) => {
      if (cut) this.#dropped(stream);
      else stream.done = true;
    });
  }

  /** The client went away from `stream`: its calls are cancelled now, or after the grace period. */
  #dropped(stream: ResponseStream): void {
    // Its first event's stream may still be being looked up: decide once it is known.
    if (stream.lookup !== undefined && stream.streamId === undefined)
      void stream.lookup.then(() => this.#wait(stream));
    else this.#wait(stream);
  }

  #wait(stream: ResponseStream): void {
    if (stream.done || stream.giveUp.aborted || stream.timer !== undefined) return;
    const streamId = stream.streamId;
    if (streamId === undefined) {
      stream.giveUp.fire();
      return;
    }
    this.#waiting.set(streamId, stream);
    stream.timer = setTimeout(() => {
      this.#waiting.delete(streamId);
      stream.giveUp.fire();
    }, this.#graceMs);
    stream.timer.unref();
  }

  /** The session ended: nothing waits any longer (its calls are cancelled with it). */
  close(): void {
    for (const stream of this.#waiting.values()) clearTimeout(stream.timer);
    this.#waiting.clear();
  }
}
