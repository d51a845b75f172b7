import type { Readable } from 'node:stream';

/**
 * A response body that is a Node stream, written as it comes by the gateway's Node face with no
 * web stream between (an answer another replica gave, relayed): building a `ReadableStream` per
 * relayed answer cost more than the rest of the relay.
 */
export interface NodeBody {
  readonly stream: Readable;
  /**
   * What ends the answer when the stream breaks off before its end: bytes to write last (an SSE
   * error event for the request), or `undefined` to break the answer off too.
   */
  readonly onBreak: () => Uint8Array | undefined;
}

const bodies = new WeakMap<Response, NodeBody>();

/** `response`, made without a body, answered with `body` by the Node face. */
export function withNodeBody(response: Response, body: NodeBody): Response {
  bodies.set(response, body);
  return response;
}

/** The Node body of `response`, when it has one. */
export function nodeBodyOf(response: Response): NodeBody | undefined {
  return bodies.get(response);
}

/** Drops `response`'s body unread, whichever kind it is. */
export async function discardBody(response: Response): Promise<void> {
  nodeBodyOf(response)?.stream.destroy();
  await response.body?.cancel();
}
