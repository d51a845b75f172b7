import { underFileLock } from './under-file-lock.js';

/**
 * `ready()`'s answer when there is one; else `work()` run under a lock on `path` (the lock file
 * `<path>.lock`, its folder made private) that other processes honour too, after asking
 * `ready()` once more, since another holder may have done the work while this one waited.
 * The lock is taken only when the work is needed, and loaded with it.
 */
export async function onceUnderLock<T>(
  path: string,
  ready: () => T | undefined | Promise<T | undefined>,
  work: () => Promise<T>,
): Promise<T> {
  const before = await ready();
  if (before !== undefined) return before;
  return underFileLock(
    path,
    // Work that takes seconds (an install): waited for longer, between longer attempts.
    { staleMs: 60_000, retries: { retries: 600, factor: 1.2, minTimeout: 50, maxTimeout: 1_000 } },
    async () => (await ready()) ?? (await work()),
  );
}
