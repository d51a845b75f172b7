import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import type { StderrTail } from './stderr-tail.js';

/** Parameters of a {@link ReusableStdioTransport}: the SDK's, with stderr going to a tail. */
export interface ReusableStdioParameters extends Omit<StdioServerParameters, 'stderr'> {
  /** Collects the child's stderr for error messages; without it stderr is ignored. */
  stderr?: StderrTail;
}

/**
 * The SDK's stdio transport, with three changes that keep a server to one process per connect
 * and its cost close to the SDK client's:
 *
 * - Being a subclass, the SDK negotiates the era on it in place: `server/discover` goes to
 *   this child, never to a throw-away sibling process (the SDK spawns a sibling only for
 *   its exact base class).
 * - While {@link holdChild} is on, `close()` lets the client go but keeps the child
 *   running, and the next `start()` takes the running child over, so a server that refused
 *   one era's opening can be spoken to in the other on the same process.
 * - The child's stderr pipe is read straight into the {@link StderrTail}, from the moment the
 *   child is spawned (before it can write), instead of through the `PassThrough` stream and
 *   `pipe()` the SDK puts in between for `stderr: 'pipe'`: one stream less per server.
 */
export class ReusableStdioTransport extends StdioClientTransport {
  #hold = false;
  #detached = false;
  readonly #tail: StderrTail | undefined;

  constructor({ stderr, ...parameters }: ReusableStdioParameters) {
    super({ ...parameters, stderr: stderr === undefined ? 'ignore' : 'pipe' });
    this.#tail = stderr;
    // The SDK would pipe the child's stderr through this PassThrough; without it, `stderr`
    // is the child's own stream once started (the SDK's getter falls back to it).
    (this as unknown as { _stderrStream: unknown })._stderrStream = null;
  }

  /** While `true`, `close()` detaches the client instead of ending the child. */
  holdChild(hold: boolean): void {
    this.#hold = hold;
    if (!hold) this.#detached = false;
  }

  /** `true` when a detached child is still running and the next `start()` will take it over. */
  get childReusable(): boolean {
    return this.#detached && this.pid !== null;
  }

  override async start(): Promise<void> {
    if (this.childReusable) {
      this.#detached = false;
      return;
    }
    await super.start();
    // `start` resolves on the child's `spawn` event: nothing it wrote has been read yet.
    this.#tail?.attach(this.stderr);
  }

  override async close(): Promise<void> {
    if (!this.#hold || this.pid === null) return super.close();
    // The client that closes is done with this child; the next one attaches its own handlers.
    this.#hold = false;
    this.#detached = true;
    const onclose = this.onclose;
    this.onclose = undefined;
    this.onerror = undefined;
    this.onmessage = undefined;
    onclose?.();
  }
}
