import { Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { BatchedStdioServerTransport } from '../../src/gateway/sessions/batched-stdio-server-transport.js';
import { corkUntilImmediate } from '../../src/mcp/cork-until-immediate.js';
import { ReusableStdioTransport } from '../../src/mcp/reusable-stdio-transport.js';
import { CallsInFlight } from '../../src/mcp/server-requests.js';
import type { CallContext } from '../../src/tool/call-context.js';

/** A writable that records each batch it is handed: one entry per `_write`/`_writev`. */
function recorder(highWaterMark = 16_384) {
  const batches: string[][] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      batches.push([chunk.toString()]);
      setImmediate(callback);
    },
    writev(chunks, callback) {
      batches.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      setImmediate(callback);
    },
  });
  return { stream, batches };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Runs `test` on a transport to a child running the script `child`, with the child's stdin; closes it after. */
async function withChild(
  child: string,
  test: (transport: ReusableStdioTransport, stdin: Writable) => Promise<void>,
): Promise<void> {
  const transport = new ReusableStdioTransport({ command: process.execPath, args: ['-e', child] });
  await transport.start();
  try {
    await test(transport, (transport as unknown as { _process: { stdin: Writable } })._process.stdin);
  } finally {
    await transport.close();
  }
}

/** A child that reads its stdin and never answers. */
const SILENT_CHILD = 'process.stdin.resume()';

describe('corkUntilImmediate', () => {
  it('sends the writes of one loop turn as one batch, in order, and the next turn as another', async () => {
    const { stream, batches } = recorder();
    const written: string[] = [];
    const write = (text: string) => {
      corkUntilImmediate(stream);
      stream.write(text);
      written.push(text);
    };
    write('a');
    process.nextTick(() => write('b'));
    void Promise.resolve().then(() => write('c'));
    await nextTurn();
    expect(written).toHaveLength(3);
    write('d');
    await nextTurn();
    expect(batches).toEqual([written.slice(0, 3), ['d']]);
  });

  it('keeps backpressure: write() says false past the high-water mark and drain follows', async () => {
    const { stream, batches } = recorder(4);
    corkUntilImmediate(stream);
    expect(stream.write('12')).toBe(true);
    corkUntilImmediate(stream);
    expect(stream.write('345')).toBe(false);
    await new Promise((resolve) => stream.once('drain', resolve));
    expect(batches).toEqual([['12', '345']]);
  });

  it('leaves an ended stream alone', () => {
    const { stream } = recorder();
    stream.end();
    corkUntilImmediate(stream);
    expect(stream.writableCorked).toBe(0);
  });
});

describe('stdio transports batch the writes of one turn', () => {
  const messages: JSONRPCMessage[] = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'ping' }));

  it('the gateway side (serve --stdio): one write for three messages', async () => {
    const { stream, batches } = recorder();
    const transport = new BatchedStdioServerTransport(new Writable() as never, stream);
    await Promise.all(messages.map((message) => transport.send(message)));
    await nextTurn();
    expect(batches).toHaveLength(1);
    expect(batches[0]?.map((line) => JSON.parse(line).id)).toEqual([1, 2, 3]);
  });

  it('the client side: a lone request leaves at once, one sent while another is unanswered waits for the turn', async () => {
    // The child never answers: every request stays unanswered.
    await withChild(SILENT_CHILD, async (transport, stdin) => {
      await transport.send(messages[0] as JSONRPCMessage);
      expect(stdin.writableCorked).toBe(0);
      await transport.send(messages[1] as JSONRPCMessage);
      expect(stdin.writableCorked).toBe(1);
      await nextTurn();
      expect(stdin.writableCorked).toBe(0);
      // A notification is no request: it never waits for the turn.
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(stdin.writableCorked).toBe(0);
    });
  });

  it("the client side: a gateway caller's lone request waits for the turn (its upstream batches every burst)", async () => {
    await withChild(SILENT_CHILD, async (transport, stdin) => {
      const calls = new CallsInFlight();
      transport.batchGatewayCalls(calls);
      const caller: CallContext = {
        toolCallId: 'call-1',
        upstream: {
          logLevel: undefined,
          capabilities: undefined,
          sessionId: 's1',
          ask: async () => undefined,
          log: () => {},
        },
      };
      const release = calls.track(caller);
      await transport.send(messages[0] as JSONRPCMessage);
      expect(stdin.writableCorked).toBe(1);
      await nextTurn();
      release();
      expect(stdin.writableCorked).toBe(0);
    });
  });

  it('the client side: once its answer is read, the next request leaves at once again', async () => {
    // The child answers every line it reads.
    const child = `require('readline').createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(line).id, result: {} }) + '\\n'));`;
    await withChild(child, async (transport, stdin) => {
      const received: JSONRPCMessage[] = [];
      transport.onmessage = (message) => received.push(message);
      await transport.send(messages[0] as JSONRPCMessage);
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      await transport.send(messages[1] as JSONRPCMessage);
      expect(stdin.writableCorked).toBe(0);
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
    });
  });

  it('the client side: the child reads requests sent together in at most two chunks', async () => {
    // The child answers every chunk it reads with the number of lines in it.
    const child = `process.stdin.on('data', (chunk) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'chunk', params: { lines: chunk.toString().split('\\n').length - 1 } }) + '\\n'));`;
    const transport = new ReusableStdioTransport({ command: process.execPath, args: ['-e', child] });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    try {
      // A first message shows the child is reading before the burst is sent.
      await transport.send(messages[0] as JSONRPCMessage);
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      await Promise.all(messages.map((message) => transport.send(message)));
      const lines = () =>
        received
          .slice(1)
          .reduce(
            (sum, message) => sum + (message as unknown as { params: { lines: number } }).params.lines,
            0,
          );
      await expect.poll(lines, { timeout: 10_000 }).toBe(3);
      // The first may leave at once (its predecessor's answer read); the two after it leave together.
      expect(received.length - 1).toBeLessThanOrEqual(2);
    } finally {
      await transport.close();
    }
  });
});
