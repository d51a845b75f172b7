import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { corkUntilImmediate } from '../mcp/cork-until-immediate.js';

/**
 * The SDK's stdio server transport, writing the messages it sends in one go (the answers to a
 * chunk of requests, a call's progress and result) to stdout in one write
 * ({@link corkUntilImmediate}) instead of one each. Serialization, framing and backpressure stay the
 * SDK's.
 */
export class BatchedStdioServerTransport extends StdioServerTransport {
  readonly #stdout: Writable;

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout);
    this.#stdout = stdout;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    corkUntilImmediate(this.#stdout);
    return super.send(message);
  }
}
