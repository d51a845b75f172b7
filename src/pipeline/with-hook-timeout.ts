/**
 * Awaits `promise` for at most `timeoutMs` (no bound when it is 0 or not finite): past it,
 * rejects with `timed out after Nms` (OpenClaw's words). The work itself is not cancelled (a hook gets no
 * timeout signal, as in OpenClaw); the timer is always cleared.
 */
export async function withHookTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return promise;
  // A late rejection of the abandoned work must not become an unhandled rejection.
  promise.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs}ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
