import type { Writable } from 'node:stream';

/** Streams corked by {@link corkForTick} whose uncork is still to come. */
const corked = new WeakSet<Writable>();

/**
 * Corks `stream` until `process.nextTick`, so every message written by the same run of code
 * (one event's handler, or one run of promise jobs) leaves in one `writev` instead of one
 * syscall each, and the reader at the other end gets them in one chunk. Call it before each
 * write: the first call corks, the next tick uncorks. Order and backpressure are the stream's own:
 * corked writes are buffered in order, `write()` still returns `false` past the high-water
 * mark and `'drain'` follows the flush.
 */
export function corkForTick(stream: Writable): void {
  if (corked.has(stream) || stream.destroyed || stream.writableEnded) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    corked.delete(stream);
    stream.uncork();
  });
}
