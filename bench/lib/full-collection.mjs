/**
 * Three full collections (the process must run with `--expose-gc`), `pauseMs` apart so that
 * finalizers and weak callbacks queued by one run before the next, and one more at the end, so
 * that what timers allocated during the last pause is not counted: what is left is what is held.
 */
export async function fullCollection(pauseMs = 100) {
  for (let pass = 0; pass < 3; pass++) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  globalThis.gc?.();
}
