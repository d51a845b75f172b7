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
 */
export class SseEventLimiter extends TransformStream<Uint8Array, Uint8Array> {
  constructor(maxEventBytes: number) {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let dropping = false;
    let tail = Buffer.alloc(0);
    let lineBytes = 0;
    let lineEndsWithCr = false;

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
    const finishEvent = (controller: TransformStreamDefaultController<Uint8Array>) => {
      if (dropping) {
        const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail.toString('latin1'))?.[1];
        if (id !== undefined) {
          const message = `the event is more than the ${formatBytes(maxEventBytes)} limit (maxResponseBytes)`;
          const error = { jsonrpc: '2.0', id: JSON.parse(id) as unknown, error: { code: -32603, message } };
          controller.enqueue(Buffer.from(`event: message\ndata: ${JSON.stringify(error)}\n\n`));
        }
      } else if (pending.length > 0) {
        controller.enqueue(Buffer.concat(pending));
      }
      pending = [];
      pendingBytes = 0;
      dropping = false;
      tail = Buffer.alloc(0);
    };

    super({
      transform(chunk, controller) {
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
            finishEvent(controller);
            start = from;
          }
        }
      },
      flush(controller) {
        finishEvent(controller);
      },
    });
  }
}
