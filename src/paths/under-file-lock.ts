import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** How long the lock waits and when a holder that died is presumed gone. */
export interface FileLockTiming {
  /** A lock not refreshed for this long was left by a process that died; it is broken. */
  staleMs: number;
  /** The attempts before giving up, and the back-off between them (as `proper-lockfile` takes them). */
  retries: { retries: number; factor: number; minTimeout: number; maxTimeout: number };
}

/** A write of a small shared file: held for milliseconds, broken after 10 s. */
export const QUICK_FILE_LOCK: FileLockTiming = {
  staleMs: 10_000,
  retries: { retries: 200, factor: 1.3, minTimeout: 10, maxTimeout: 250 },
};

/**
 * `work()` run under a lock on `path` that other processes honour too (the lock file
 * `<path>.lock`, its folder made private): two processes that read, change and write one file
 * never lose each other's changes. The lock's library loads with the first lock, not with mcptools.
 */
export async function underFileLock<T>(
  path: string,
  timing: FileLockTiming,
  work: () => Promise<T>,
): Promise<T> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const { default: lockfile } = await import('proper-lockfile');
  const release = await lockfile.lock(path, {
    realpath: false,
    lockfilePath: `${path}.lock`,
    stale: timing.staleMs,
    retries: timing.retries,
  });
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
