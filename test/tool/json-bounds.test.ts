import { describe, expect, it } from 'vitest';
import { exceedsDepth, jsonBounds } from '../../src/json/json-bounds.js';

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? { child: value } : [value];
  return value;
}

describe('jsonBounds', () => {
  it('counts a flat object as depth 1 and each object or array level as one more', () => {
    expect(jsonBounds({ a: 1 }, { maxDepth: 1 })).toBeUndefined();
    expect(jsonBounds({ a: { b: 1 } }, { maxDepth: 1 })).toBe('depth');
    expect(jsonBounds(nested(64), { maxDepth: 64 })).toBeUndefined();
    expect(jsonBounds(nested(65), { maxDepth: 64 })).toBe('depth');
    expect(exceedsDepth([[[]]], 2)).toBe(true);
    expect(exceedsDepth([[[]]], 3)).toBe(false);
  });

  it('estimates the JSON size from keys, strings and values, and stops at the limit', () => {
    const value = { name: 'x'.repeat(100), list: [1, 2, 3] };
    // 2 (braces) + "name" 8 + string 102 + "list" 8 + array 2 + 3 items + 3 numbers × 5
    expect(jsonBounds(value, { maxBytes: 140 })).toBeUndefined();
    expect(jsonBounds(value, { maxBytes: 139 })).toBe('bytes');
    expect(jsonBounds('x'.repeat(10), { maxBytes: 12 })).toBeUndefined();
    expect(jsonBounds('x'.repeat(11), { maxBytes: 12 })).toBe('bytes');
  });

  it('sizes a flat object of scalars as the general walk does (its shortcut counts the same bytes)', () => {
    const flat = { name: 'x'.repeat(100), count: 1, on: true, none: null };
    // 2 + "name" 8 + string 102 + "count" 9 + 5 + "on" 6 + 5 + "none" 8 + 5
    expect(jsonBounds(flat, { maxBytes: 150 })).toBeUndefined();
    expect(jsonBounds(flat, { maxBytes: 149 })).toBe('bytes');
    // The same record inside an array takes the general walk: 2 more for the array, 1 for its item.
    expect(jsonBounds([flat], { maxBytes: 153 })).toBeUndefined();
    expect(jsonBounds([flat], { maxBytes: 152 })).toBe('bytes');
    expect(jsonBounds(flat, { maxDepth: 0 }), 'a depth limit below 1 still refuses it').toBe('depth');
  });

  it('walks a million levels without overflowing the stack', () => {
    expect(jsonBounds(nested(1_000_000), { maxDepth: 128 })).toBe('depth');
    expect(jsonBounds(nested(1_000_000), { maxBytes: 1000 })).toBe('bytes');
  });
});
