import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

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
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const { default: lockfile } = await import('proper-lockfile');
  const release = await lockfile.lock(path, {
    realpath: false,
    lockfilePath: `${path}.lock`,
    stale: 60_000,
    retries: { retries: 600, factor: 1.2, minTimeout: 50, maxTimeout: 1_000 },
  });
  try {
    return (await ready()) ?? (await work());
  } finally {
    await release().catch(() => undefined);
  }
}
