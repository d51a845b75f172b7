import { expect } from 'vitest';

/**
 * Waits until `condition` holds, polling every 20 ms with `expect.poll`; after `timeoutMs` the
 * test fails with `message` (what was awaited) instead of "expected false to be true".
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  message: string,
  timeoutMs = 10_000,
): Promise<void> {
  await expect.poll(condition, { timeout: timeoutMs, interval: 20, message }).toBe(true);
}
