import { describe, expect, it } from 'vitest';
import { pollutionKey } from '../../src/json/pollution-key.js';

describe('pollutionKey', () => {
  it('names an own __proto__ key at the top, in a nested object and in an array', () => {
    expect(pollutionKey(JSON.parse('{"text":"a","__proto__":{"polluted":1}}'))).toBe('__proto__');
    expect(pollutionKey(JSON.parse('{"a":{"b":{"__proto__":{}}}}'))).toBe('a.b.__proto__');
    expect(pollutionKey(JSON.parse('{"list":[1,{"__proto__":null}]}'))).toBe('list.1.__proto__');
    // A __proto__ whose value is not an object is refused too: the key itself is the danger.
    expect(pollutionKey(JSON.parse('{"__proto__":"x"}'))).toBe('__proto__');
  });

  it('names a constructor that carries prototype, and leaves other constructors alone', () => {
    expect(pollutionKey(JSON.parse('{"x":{"constructor":{"prototype":{"polluted":1}}}}'))).toBe(
      'x.constructor',
    );
    expect(pollutionKey({ constructor: 'a string' })).toBeUndefined();
    expect(pollutionKey({ constructor: { name: 'no prototype' } })).toBeUndefined();
  });

  it('passes flat and nested arguments without such keys, and non-objects', () => {
    expect(pollutionKey({ text: 'hello', count: 2, flag: true, none: null })).toBeUndefined();
    expect(pollutionKey({ a: { b: [1, { c: 'proto' }] }, proto: '__proto__' })).toBeUndefined();
    expect(pollutionKey('__proto__')).toBeUndefined();
    expect(pollutionKey(null)).toBeUndefined();
    expect(pollutionKey([])).toBeUndefined();
  });
});
