import { describe, expect, it } from 'vitest';
import { suggestToolNames } from '../../src/registry/suggest-tool-names.js';
import { decodeListCursor, encodeListCursor } from '../../src/router/list-cursor.js';
import { validateArguments } from '../../src/tool/argument-validator.js';

describe('validateArguments', () => {
  const schema = {
    type: 'object',
    properties: {
      text: { type: 'string' },
      count: { type: 'integer', minimum: 1 },
      nested: { type: 'object', properties: { flag: { type: 'boolean' } } },
    },
    required: ['text'],
  };

  it('accepts valid arguments', () => {
    expect(validateArguments(schema, { text: 'hi', count: 2 })).toBeUndefined();
  });

  it('names a missing required field', () => {
    expect(validateArguments(schema, {})).toEqual({ field: 'text', message: 'field "text" is required' });
  });

  it('names a wrongly typed nested field', () => {
    expect(validateArguments(schema, { text: 'x', nested: { flag: 'yes' } })).toMatchObject({
      field: 'nested.flag',
    });
    expect(validateArguments(schema, { text: 'x', count: 0 })?.message).toContain('"count"');
  });

  it('accepts a 2020-12 schema and leaves an uncompilable one to the tool', () => {
    const modern = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { type: 'number' } },
      required: ['a'],
    };
    expect(validateArguments(modern, { a: 1 })).toBeUndefined();
    expect(validateArguments(modern, {})?.field).toBe('a');
    expect(
      validateArguments({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 }),
    ).toBeUndefined();
  });
});

describe('list cursors', () => {
  it('round-trip offset and server and reject garbage', () => {
    expect(decodeListCursor(encodeListCursor({ offset: 200, server: 'fs' }))).toEqual({
      offset: 200,
      server: 'fs',
    });
    expect(decodeListCursor(encodeListCursor({ offset: 5 }))).toEqual({ offset: 5 });
    expect(decodeListCursor('not-a-cursor')).toBeUndefined();
    expect(decodeListCursor(Buffer.from('{"o":-1}').toString('base64url'))).toBeUndefined();
  });
});

describe('suggestToolNames', () => {
  const names = [
    'everything__echo',
    'everything__get_sum',
    'files__read_text_file',
    'files__write_file',
    'memory__create_entities',
  ];

  it('suggests the namespaced tool for a bare original name', () => {
    expect(suggestToolNames('echo', names)[0]).toBe('everything__echo');
  });

  it('suggests close spellings and shared words, best first', () => {
    expect(suggestToolNames('everything__ecko', names)[0]).toBe('everything__echo');
    expect(suggestToolNames('read_file', names)[0]).toBe('files__read_text_file');
    expect(suggestToolNames('readFile', names)).toContain('files__read_text_file');
  });

  it('suggests nothing for an unrelated name', () => {
    expect(suggestToolNames('zzqqxx', names)).toEqual([]);
  });
});
