import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/**
 * The SDK's stdio transport, with two changes that keep a server to one process per connect:
 *
 * - Being a subclass, the SDK negotiates the era on it in place: `server/discover` goes to
 *   this child, never to a throw-away sibling process (the SDK spawns a sibling only for
 *   its exact base class).
 * - While {@link holdChild} is on, `close()` lets the client go but keeps the child
 *   running, and the next `start()` takes the running child over, so a server that refused
 *   one era's opening can be spoken to in the other on the same process.
 */
export class ReusableStdioTransport extends StdioClientTransport {
  #hold = false;
  #detached = false;

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
    return super.start();
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
