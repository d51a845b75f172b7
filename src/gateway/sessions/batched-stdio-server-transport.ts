import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { corkUntilImmediate } from '../../mcp/cork-until-immediate.js';

/**
 * How long a response waits after a progress notification was written before it. An SDK
 * client drops a progress notification it reads in the same chunk as the response that
 * follows it (it settles the response at once and runs notification handlers a microtask
 * later); written this far apart, they reach the client in two reads unless it is stalled
 * for longer than this.
 */
const PROGRESS_GAP_MS = 10;

function isResponse(message: JSONRPCMessage): boolean {
  return 'id' in message && ('result' in message || 'error' in message);
}

/**
 * The SDK's stdio server transport, writing the messages it sends in one go (the answers to a
 * chunk of requests, a list's pages) to stdout in one write ({@link corkUntilImmediate})
 * instead of one each. Serialization, framing and backpressure stay the SDK's.
 *
 * A response sent right after a progress notification is held for {@link PROGRESS_GAP_MS}
 * and everything sent meanwhile waits behind it, in order: the client reads the notification
 * before the response, so a call's last progress is not lost to its result.
 */
export class BatchedStdioServerTransport extends StdioServerTransport {
  readonly #stdout: Writable;
  /** When a progress notification last left (`performance.now()`); +∞ while one is corked; −∞ never. */
  #progressAt = Number.NEGATIVE_INFINITY;
  /** Sends waiting behind a held response, in order (none: `undefined`). */
  #queue: Promise<void> | undefined;

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout);
    this.#stdout = stdout;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if (this.#queue === undefined) {
      const since = performance.now() - this.#progressAt;
      if (!isResponse(message) || since >= PROGRESS_GAP_MS) return this.#write(message);
      // A notification still corked (`since` is negative) has not left yet: the full gap.
      const wait = since < 0 ? PROGRESS_GAP_MS : PROGRESS_GAP_MS - since;
      this.#queue = new Promise((resolve) => setTimeout(resolve, wait));
    }
    const sent = this.#queue.then(() => this.#write(message));
    const queued = sent.catch(() => {});
    this.#queue = queued;
    void queued.then(() => {
      if (this.#queue === queued) this.#queue = undefined;
    });
    return sent;
  }

  #write(message: JSONRPCMessage): Promise<void> {
    corkUntilImmediate(this.#stdout);
    if (!isResponse(message) && 'method' in message && message.method === 'notifications/progress') {
      // It leaves when the cork is lifted (an immediate queued before this one): the gap starts then.
      this.#progressAt = Number.POSITIVE_INFINITY;
      setImmediate(() => {
        this.#progressAt = performance.now();
      });
    }
    return super.send(message);
  }
}
