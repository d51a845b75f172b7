import { describe, expect, it } from 'vitest';
import { parseCallArguments } from '../../src/cli/parse-call-arguments.js';
import type { JsonSchemaObject } from '../../src/tool/tool.js';

const schema: JsonSchemaObject = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'string'] },
    level: { enum: [1, 2, 3] },
    mode: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
    note: { type: 'string' },
  },
};

describe('parseCallArguments', () => {
  it('types union, enum and anyOf properties by what the value can be', () => {
    expect(parseCallArguments(['id=7', 'level=2', 'mode=false'], schema)).toEqual({
      id: 7,
      level: 2,
      mode: false,
    });
    expect(parseCallArguments(['id=abc', 'mode=fast'], schema)).toEqual({ id: 'abc', mode: 'fast' });
  });

  it('keeps untyped values as JSON when they parse and as text otherwise', () => {
    expect(parseCallArguments(['n=1.5', 'b=true', 'list=[1]', 's=hello world', 'q="x"'], schema)).toEqual({
      n: 1.5,
      b: true,
      list: [1],
      s: 'hello world',
      q: 'x',
    });
  });

  it('keeps everything after the first = and reads @@ as a literal @', () => {
    expect(parseCallArguments(['note=a=b', 'other=@@handle'], schema)).toEqual({
      note: 'a=b',
      other: '@handle',
    });
  });

  it('makes __proto__ a plain key, never the prototype', () => {
    const parsed = parseCallArguments(['__proto__={"polluted":true}'], schema);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('rejects a key given twice, and a JSON argument that is not an object', () => {
    expect(() => parseCallArguments(['note=a', 'note=b'], schema)).toThrow('note is given twice');
    expect(() => parseCallArguments(['{"a":1'], schema)).toThrow('not valid JSON');
    expect(() => parseCallArguments(['[1]'], schema)).toThrow('Expected key=value');
  });
});
