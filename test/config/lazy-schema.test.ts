import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../src/config/lazy-schema.js';

describe('lazySchema', () => {
  it('builds the schema on the first call, not before, and only once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.strictObject({ name: z.string().min(1, 'must not be empty') });
    });
    expect(builds).toBe(0);
    const first = schema();
    expect(schema()).toBe(first);
    expect(builds).toBe(1);
    // The schema built is the one that validates: the control that it is not an empty stand-in.
    expect(first.safeParse({ name: 'a' }).success).toBe(true);
    expect(first.safeParse({ name: '' }).error?.issues[0]?.message).toBe('must not be empty');
  });
});
