import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { corkUntilImmediate } from '../../mcp/cork-until-immediate.js';

/**
 * How long a response waits after a progress notification was written before it, for a
 * 2026-07-28 client (which has no server→client request to flush with). An SDK client drops a
 * progress notification it reads in the same chunk as the response that follows it (it
 * settles the response at once and runs notification handlers a microtask later); written
 * this far apart, they reach the client in two reads unless it is stalled for longer.
 */
const PROGRESS_GAP_MS = 10;

/**
 * How long a 2025-era client is given to answer the flushing `ping` before the response goes
 * anyway (every client must answer `ping`; one that does not then risks the lost notification).
 */
const FLUSH_TIMEOUT_MS = 5000;

/** The ids of the gateway's own flushing pings: the server's protocol never sees their answers. */
const FLUSH_ID_PREFIX = 'mcptools-flush-';

function isResponse(message: JSONRPCMessage): boolean {
  return 'id' in message && ('result' in message || 'error' in message);
}

/**
 * The SDK's stdio server transport, writing the messages it sends in one go (the answers to a
 * chunk of requests, a list's pages) to stdout in one write ({@link corkUntilImmediate})
 * instead of one each. Serialization, framing and backpressure stay the SDK's.
 *
 * A response sent after a progress notification waits, and everything sent meanwhile waits
 * behind it, in order, so that a call's last progress is not lost to its result. With a
 * 2025-era client the wait is a `ping` round trip: the client answers the ping only after it
 * read the notification before it, and dispatched it, so the response it reads next finds the
 * notification handled however loaded the client is. A 2026-07-28 client has no server→client
 * request over stdio; its response waits {@link PROGRESS_GAP_MS}.
 */
export class BatchedStdioServerTransport extends StdioServerTransport {
  readonly #stdout: Writable;
  /** When a progress notification last left (`performance.now()`); +∞ while one is corked; −∞ never. */
  #progressAt = Number.NEGATIVE_INFINITY;
  /** A progress notification was written since the last flush (a 2025-era client's ping answered). */
  #unflushed = false;
  /** The client opened a 2025-era session (`initialize`): it answers a server's `ping`. */
  #answersPing = false;
  #flushes = 0;
  /** The flushing ping waiting for its answer, by id. */
  readonly #pings = new Map<string, () => void>();
  /** Sends waiting behind a held response, in order (none: `undefined`). */
  #queue: Promise<void> | undefined;
  #handler: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout);
    this.#stdout = stdout;
    // The answers to the flushing pings are the transport's own; everything else goes on.
    Object.defineProperty(this, 'onmessage', {
      configurable: true,
      get: () => this.#handler,
      set: (next: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined) => {
        this.#handler =
          next === undefined
            ? undefined
            : (message, extra) => {
                if (this.#ownAnswer(message)) return;
                if ('method' in message && message.method === 'initialize') this.#answersPing = true;
                next(message, extra);
              };
      },
    });
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if (this.#queue === undefined) {
      const wait = isResponse(message) ? this.#flush() : undefined;
      if (wait === undefined) return this.#write(message);
      this.#queue = wait;
    }
    const sent = this.#queue.then(() => this.#write(message));
    const queued = sent.catch(() => {});
    this.#queue = queued;
    void queued.then(() => {
      if (this.#queue === queued) this.#queue = undefined;
    });
    return sent;
  }

  override async close(): Promise<void> {
    for (const answered of this.#pings.values()) answered();
    this.#pings.clear();
    await super.close();
  }

  /** What a response must wait for (a progress notification went before it), or `undefined`. */
  #flush(): Promise<void> | undefined {
    if (this.#answersPing) {
      if (!this.#unflushed) return undefined;
      this.#unflushed = false;
      const id = `${FLUSH_ID_PREFIX}${++this.#flushes}`;
      return new Promise<void>((resolve) => {
        const timer = setTimeout(answered, FLUSH_TIMEOUT_MS);
        timer.unref();
        function answered() {
          clearTimeout(timer);
          resolve();
        }
        this.#pings.set(id, answered);
        this.#write({ jsonrpc: '2.0', id, method: 'ping' }).catch(answered);
      });
    }
    const since = performance.now() - this.#progressAt;
    if (since >= PROGRESS_GAP_MS) return undefined;
    // A notification still corked (`since` is negative) has not left yet: the full gap.
    const wait = since < 0 ? PROGRESS_GAP_MS : PROGRESS_GAP_MS - since;
    return new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Whether `message` answers one of the flushing pings (and lets the responses behind it go). */
  #ownAnswer(message: JSONRPCMessage): boolean {
    if (!isResponse(message)) return false;
    const { id } = message as { id: unknown };
    if (typeof id !== 'string' || !id.startsWith(FLUSH_ID_PREFIX)) return false;
    const answered = this.#pings.get(id);
    this.#pings.delete(id);
    answered?.();
    return true;
  }

  #write(message: JSONRPCMessage): Promise<void> {
    corkUntilImmediate(this.#stdout);
    if (!isResponse(message) && 'method' in message && message.method === 'notifications/progress') {
      this.#unflushed = true;
      // It leaves when the cork is lifted (an immediate queued before this one): the gap starts then.
      this.#progressAt = Number.POSITIVE_INFINITY;
      setImmediate(() => {
        this.#progressAt = performance.now();
      });
    }
    return super.send(message);
  }
}
