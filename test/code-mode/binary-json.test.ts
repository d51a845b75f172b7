import type { QuickJSContext } from 'quickjs-emscripten-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BINARY_JSON_PROBE,
  binaryJsonMatches,
  encodeBinaryJson,
  NotJsonError,
} from '../../src/router/code-mode/binary-json.js';
import { quickJsInstance } from '../../src/router/code-mode/quickjs-module.js';

let context: QuickJSContext;

beforeAll(async () => {
  context = (await quickJsInstance()).newRuntime().newContext();
});

afterAll(() => {
  const { runtime } = context;
  context.dispose();
  runtime.dispose();
});

/** `value` written by the host, read by QuickJS, and written back there as JSON text. */
function throughQuickJs(value: unknown): string {
  const bytes = encodeBinaryJson(value);
  const buffer = context.newArrayBuffer(bytes.buffer as ArrayBuffer);
  const read = context.decodeBinaryJSON(buffer);
  buffer.dispose();
  const stringify = context.unwrapResult(context.evalCode('(value) => JSON.stringify(value)'));
  const text = context.unwrapResult(context.callFunction(stringify, context.undefined, read));
  stringify.dispose();
  read.dispose();
  return context.getString(text);
}

describe('the binary JSON a script reads its answers in', () => {
  it.each([
    ['numbers', [0, 1, -1, 63, 64, -65, 300, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 1.5, -1e300, 5e-324, 0.1]],
    [
      'strings',
      [
        '',
        'ascii',
        'é latin-1',
        '€ wide',
        '😀 astral',
        '\u0000\n"\\',
        'x'.repeat(70_000),
        `${'ÿ'.repeat(300)}€ late`,
      ],
    ],
    ['nested', { a: { b: { c: [1, [2, [3, {}]]] } }, '': [], 'k é€': null, t: true, f: false }],
    ['index keys', { '0': 'zero', '10': 'ten', '4294967294': 'big', '01': 'not an index', x: 1 }],
    ['a __proto__ key as JSON.parse makes it', JSON.parse('{"__proto__":{"polluted":true},"a":1}')],
    [
      'a page of records',
      { items: Array.from({ length: 200 }, (_, id) => ({ id, name: `n${id}`, tags: ['a', 'b'] })) },
    ],
  ])('reads %s exactly as JSON text would give them', (_label, value) => {
    expect(throughQuickJs(value)).toBe(JSON.stringify(value));
  });

  it('leaves out what JSON.stringify leaves out, and writes non-finite numbers as null', () => {
    const value = { kept: 1, gone: undefined, fn: () => 1, list: [undefined, Number.NaN, Infinity] };
    expect(throughQuickJs(value)).toBe(JSON.stringify(value));
  });

  it('refuses what JSON.parse could not have made, so the answer goes as JSON text', () => {
    expect(() => encodeBinaryJson({ when: new Date(0) })).toThrow(NotJsonError);
    expect(() => encodeBinaryJson(undefined)).toThrow(NotJsonError);
    expect(() => encodeBinaryJson(10n)).toThrow(NotJsonError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => encodeBinaryJson(cycle)).toThrow(NotJsonError);
    // Control: the same shapes without them are written.
    expect(throughQuickJs({ when: '1970-01-01T00:00:00.000Z', self: {} })).toBe(
      '{"when":"1970-01-01T00:00:00.000Z","self":{}}',
    );
  });

  it("writes what this QuickJS build's own writer writes, so the sandbox takes the binary form", () => {
    const parse = context.unwrapResult(context.evalCode('JSON.parse'));
    const text = context.newString(BINARY_JSON_PROBE);
    const value = context.unwrapResult(context.callFunction(parse, context.undefined, text));
    const encoded = context.encodeBinaryJSON(value);
    const bytes = context.getArrayBuffer(encoded);
    expect(binaryJsonMatches(bytes.value)).toBe(true);
    // Control: one byte changed is told apart.
    const changed = bytes.value.slice();
    changed[changed.length - 1] = changed.at(-1)! ^ 1;
    expect(binaryJsonMatches(changed)).toBe(false);
    for (const handle of [bytes, encoded, value, text, parse]) handle.dispose();
  });

  it('writes each answer whole after a larger one (the writer keeps its buffer between answers)', () => {
    const large = { items: Array.from({ length: 5_000 }, (_, id) => ({ id, name: `n${id}`.repeat(40) })) };
    expect(throughQuickJs(large)).toBe(JSON.stringify(large));
    expect(throughQuickJs({ a: 'b' })).toBe('{"a":"b"}');
    expect(throughQuickJs([1])).toBe('[1]');
  });
});
