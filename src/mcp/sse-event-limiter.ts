import { formatBytes } from '../tool/result.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Bytes of an oversized event kept to find the JSON-RPC id it carried (the SDK writes it last). */
const TAIL_BYTES = 512;

/**
 * Caps each event of a Server-Sent Events stream at `maxEventBytes`. Events are passed on whole
 * (at most one event is held); an event that grows past the cap is dropped as it streams, and
 * when it ends an `event: message` carrying a JSON-RPC error for the same request id takes its
 * place, so the call fails at once with a message naming the limit and the stream stays usable.
 *
 * The result pulls from `source` as it is read (one stage, no `pipeThrough`: every HTTP call's
 * response passes here, and a piped `TransformStream` costs several times as much per response).
 */
export function limitSseEvents(
  source: ReadableStream<Uint8Array>,
  maxEventBytes: number,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let dropping = false;
  let tail = Buffer.alloc(0);
  let lineBytes = 0;
  let lineEndsWithCr = false;
  let ready: Buffer[] = [];

  const take = (piece: Buffer) => {
    if (piece.length === 0) return;
    if (dropping) {
      tail = Buffer.concat([tail, piece.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
      return;
    }
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes > maxEventBytes) {
      dropping = true;
      tail = Buffer.concat(pending).subarray(-TAIL_BYTES);
      pending = [];
      pendingBytes = 0;
    }
  };
  const finishEvent = () => {
    if (dropping) {
      const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail.toString('latin1'))?.[1];
      if (id !== undefined) {
        const message = `the event is more than the ${formatBytes(maxEventBytes)} limit (maxResponseBytes)`;
        const error = { jsonrpc: '2.0', id: JSON.parse(id) as unknown, error: { code: -32603, message } };
        ready.push(Buffer.from(`event: message\ndata: ${JSON.stringify(error)}\n\n`));
      }
    } else if (pending.length > 0) {
      ready.push(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending));
    }
    pending = [];
    pendingBytes = 0;
    dropping = false;
    tail = Buffer.alloc(0);
  };
  const transform = (chunk: Uint8Array) => {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    let from = 0;
    for (;;) {
      const newline = buffer.indexOf(NEWLINE, from);
      if (newline === -1) {
        lineBytes += buffer.length - from;
        if (buffer.length > from) lineEndsWithCr = buffer[buffer.length - 1] === CARRIAGE_RETURN;
        take(buffer.subarray(start));
        return;
      }
      lineBytes += newline - from;
      const crBefore = newline > from ? buffer[newline - 1] === CARRIAGE_RETURN : lineEndsWithCr;
      const blank = lineBytes === 0 || (lineBytes === 1 && crBefore);
      lineBytes = 0;
      lineEndsWithCr = false;
      from = newline + 1;
      if (blank) {
        take(buffer.subarray(start, from));
        finishEvent();
        start = from;
      }
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      // Reads until at least one whole event is ready (a pull that enqueues nothing is not
      // called again for the same read), or the source ends.
      async pull(controller) {
        while (ready.length === 0) {
          const { done, value } = await reader.read();
          if (done) {
            finishEvent();
            for (const event of ready) controller.enqueue(event);
            controller.close();
            return;
          }
          transform(value);
        }
        const events = ready;
        ready = [];
        for (const event of events) controller.enqueue(event);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
