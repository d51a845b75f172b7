import { describe, expect, it } from 'vitest';
import { keepTimerList } from '../../src/mcp/timer-list-keeper.js';

describe('keepTimerList', () => {
  it('keeps an idle interval of the duration that never holds the process open', () => {
    const keeper = keepTimerList(60_000);
    try {
      expect(keeper, 'a keeper for a duration Node takes').toBeDefined();
      expect(keeper?.hasRef(), 'unref: it must not keep the process alive').toBe(false);
    } finally {
      clearInterval(keeper);
    }
  });

  it('makes none for a duration Node would turn into 1 ms (an interval firing every millisecond)', () => {
    expect(keepTimerList(0)).toBeUndefined();
    expect(keepTimerList(2.5)).toBeUndefined();
    expect(keepTimerList(2 ** 31)).toBeUndefined();
    expect(keepTimerList(Number.POSITIVE_INFINITY)).toBeUndefined();
    const largest = keepTimerList(2 ** 31 - 1);
    expect(largest, 'the longest delay Node takes still gets one').toBeDefined();
    clearInterval(largest);
  });
});
