import type { Writable } from 'node:stream';

/** Streams corked by {@link corkUntilImmediate} whose uncork is still to come. */
const corked = new WeakSet<Writable>();

/**
 * Corks `stream` until the event loop's next `setImmediate` turn, so every message written
 * meanwhile — in the same event's handler, or in the handlers of every other event the same
 * poll delivered (the reads of several HTTP requests, a chunk of several requests) — leaves in
 * one `writev` instead of one syscall each, and the reader at the other end gets them in one
 * chunk. Call it before each write: the first call corks, the immediate uncorks. Nothing waits
 * for a timer: the loop does not block in its poll while an immediate is pending. Order and
 * backpressure are the stream's own: corked writes are buffered in order, `write()` still
 * returns `false` past the high-water mark and `'drain'` follows the flush.
 */
export function corkUntilImmediate(stream: Writable): void {
  if (corked.has(stream) || stream.destroyed || stream.writableEnded) return;
  corked.add(stream);
  stream.cork();
  setImmediate(() => {
    corked.delete(stream);
    stream.uncork();
  });
}
