import { expect } from 'vitest';

const INTERVAL_MS = 20;

/**
 * Waits until `condition` holds, polling every 20 ms with `expect.poll`; after `timeoutMs` the
 * test fails with `message` (what was awaited) instead of "expected false to be true". In a
 * `beforeAll`/`afterAll` hook, where `expect.poll` has no test, it polls the same way and throws
 * an error with the same message.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  message: string,
  timeoutMs = 10_000,
): Promise<void> {
  let poll: ReturnType<typeof expect.poll> | undefined;
  try {
    poll = expect.poll(condition, { timeout: timeoutMs, interval: INTERVAL_MS, message });
  } catch (error) {
    if (!String((error as Error).message).includes('inside a test')) throw error;
  }
  if (poll) return poll.toBe(true);
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${message}: still false after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
}
