import { describe, expect, it } from 'vitest';
import { toAnthropicTools } from '../../src/providers/anthropic-tools.js';
import { LossLog } from '../../src/providers/conversion-report.js';
import { toGeminiParameters } from '../../src/providers/gemini-schema.js';
import { toGeminiTools } from '../../src/providers/gemini-tools.js';
import { toOpenAIStrictSchema } from '../../src/providers/openai-strict-schema.js';
import { toOpenAITools } from '../../src/providers/openai-tools.js';
import { validateGeminiDeclaration } from '../../src/providers/validate/validate-gemini-declaration.js';
import { validateOpenAITool } from '../../src/providers/validate/validate-openai-tool.js';
import { textResult } from '../../src/tool/result.js';
import type { JsonSchemaObject, Tool } from '../../src/tool/tool.js';

function tool(name: string, parameters: JsonSchemaObject, description = 'A tool'): Tool {
  return { name, description, parameters, execute: async () => textResult('ok') };
}

function gemini(schema: JsonSchemaObject) {
  const log = new LossLog();
  return { parameters: toGeminiParameters(schema, log), lost: log.lost };
}

describe('Gemini schema cleaning', () => {
  it('inlines $defs and cuts a recursive $ref with a logged stub', () => {
    const { parameters, lost } = gemini({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      required: ['tree'],
      $defs: {
        node: {
          type: 'object',
          description: 'A node',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['name'],
        },
      },
    });
    expect(parameters?.properties?.tree?.properties?.name).toEqual({ type: 'STRING' });
    expect(parameters?.properties?.tree?.properties?.children?.items).toEqual({
      type: 'OBJECT',
      description: 'A node',
    });
    expect(parameters?.required).toEqual(['tree']);
    expect(JSON.stringify(parameters)).not.toContain('$');
    expect(lost.some((entry) => entry.startsWith('recursive $ref #/$defs/node cut'))).toBe(true);
  });

  it('turns type lists and null union members into nullable, and several types into anyOf', () => {
    const { parameters } = gemini({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'B' },
        c: { type: ['string', 'number'], description: 'C' },
      },
    });
    expect(parameters?.properties?.a).toEqual({ type: 'STRING', nullable: true });
    expect(parameters?.properties?.b).toEqual({ type: 'INTEGER', nullable: true, description: 'B' });
    expect(parameters?.properties?.c).toEqual({
      anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }],
      description: 'C',
    });
  });

  it('keeps string enums, turns const into enum, and moves non-string enums and defaults into the description', () => {
    const { parameters, lost } = gemini({
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['a', 'b'] },
        kind: { const: 'fixed' },
        level: { type: 'integer', enum: [1, 2, 3], default: 2 },
      },
    });
    expect(parameters?.properties?.mode).toEqual({ type: 'STRING', enum: ['a', 'b'] });
    expect(parameters?.properties?.kind).toEqual({ type: 'STRING', enum: ['fixed'] });
    expect(parameters?.properties?.level).toEqual({
      type: 'INTEGER',
      description: 'Allowed values: 1, 2, 3. Default: 2.',
    });
    expect(lost).toContain('non-string enum → description at /properties/level');
    expect(lost).toContain('default → description at /properties/level');
  });

  it('drops unsupported keywords with a trace and keeps the supported ones', () => {
    const { parameters, lost } = gemini({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: {
        url: { type: 'string', format: 'uri', minLength: 3, pattern: '^h' },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', exclusiveMinimum: 0, maximum: 10 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5, uniqueItems: true },
      },
    });
    expect(parameters?.properties?.url).toEqual({
      type: 'STRING',
      pattern: '^h',
      minLength: '3',
      description: 'Format: uri.',
    });
    expect(parameters?.properties?.when).toEqual({ type: 'STRING', format: 'date-time' });
    expect(parameters?.properties?.count).toEqual({
      type: 'INTEGER',
      maximum: 10,
      description: 'Must be > 0.',
    });
    expect(parameters?.properties?.tags).toEqual({
      type: 'ARRAY',
      items: { type: 'STRING' },
      maxItems: '5',
      description: 'Items must be unique.',
    });
    expect(lost).toEqual(
      expect.arrayContaining([
        'format uri → description at /properties/url',
        'exclusiveMinimum → description at /properties/count',
        'uniqueItems → description at /properties/tags',
      ]),
    );
  });

  it('leaves out parameters for a tool without any, and keeps a nested empty object as bare OBJECT', () => {
    expect(gemini({ type: 'object', properties: {} }).parameters).toBeUndefined();
    const { parameters, lost } = gemini({
      type: 'object',
      properties: { meta: { type: 'object', additionalProperties: { type: 'string' } } },
    });
    expect(parameters?.properties?.meta).toEqual({ type: 'OBJECT', description: 'Values are strings.' });
    expect(lost.some((entry) => entry.includes('free-form object'))).toBe(true);
  });

  it('merges allOf, reduces oneOf to anyOf and never drops a required key without a schema', () => {
    const { parameters, lost } = gemini({
      type: 'object',
      allOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'number' } } },
      ],
      properties: { pick: { oneOf: [{ type: 'string' }, { type: 'boolean' }] } },
      required: ['ghost'],
    });
    expect(Object.keys(parameters?.properties ?? {}).sort()).toEqual(['a', 'b', 'ghost', 'pick']);
    expect(parameters?.required?.sort()).toEqual(['a', 'ghost']);
    expect(parameters?.properties?.pick).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }] });
    expect(lost).toContain('oneOf → anyOf (exclusivity lost) at /properties/pick');
    expect(lost).toContain('required "ghost" had no schema → any JSON value at /');
  });

  it('names: a leading digit gets an underscore, illegal characters a hash, duplicates a suffix', () => {
    const [geminiTool] = toGeminiTools([
      tool('1password__list', { type: 'object' }),
      tool('files.read', { type: 'object' }),
      tool('dup', { type: 'object' }),
      tool('dup', { type: 'object' }),
    ]);
    const names = geminiTool?.functionDeclarations.map((declaration) => declaration.name) ?? [];
    expect(names[0]).toBe('_1password__list');
    expect(names[1]).toBe('files.read');
    expect(names[2]).toBe('dup');
    expect(names[3]).toMatch(/^dup_[0-9a-f]{6}$/);
    for (const declaration of geminiTool?.functionDeclarations ?? [])
      expect(validateGeminiDeclaration(declaration)).toEqual([]);
    const openai = toOpenAITools([tool('files.read', { type: 'object' })]);
    expect(openai[0]?.function.name).toMatch(/^files_read_[0-9a-f]{6}$/);
  });
});

describe('OpenAI strict mode', () => {
  it('requires every property, makes optional ones nullable and closes every object', () => {
    const log = new LossLog();
    const result = toOpenAIStrictSchema(
      {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1 },
          limit: { type: 'integer', default: 10 },
          mode: { type: 'string', enum: ['a', 'b'] },
          filter: { type: 'object', properties: { tag: { type: 'string' } } },
          any: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        },
        required: ['query'],
      },
      log,
    );
    expect('schema' in result).toBe(true);
    if (!('schema' in result)) return;
    const properties = result.schema.properties as Record<string, Record<string, unknown>>;
    expect(result.schema.required).toEqual(['query', 'limit', 'mode', 'filter', 'any']);
    expect(result.schema.additionalProperties).toBe(false);
    expect(properties.query).toEqual({ type: 'string', description: 'At least 1 characters.' });
    expect(properties.limit).toEqual({ type: ['integer', 'null'], description: 'Default: 10.' });
    expect(properties.mode).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(properties.filter).toEqual({
      type: ['object', 'null'],
      properties: { tag: { type: ['string', 'null'] } },
      required: ['tag'],
      additionalProperties: false,
    });
    expect(properties.any).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] });
    expect(log.lost).toContain('minLength → description at /properties/query');
  });

  it('falls back to non-strict for free-form objects, untyped values and recursion, saying why', () => {
    const cases: Array<[JsonSchemaObject, RegExp]> = [
      [{ type: 'object', properties: { meta: { type: 'object' } } }, /free-form object/],
      [
        { type: 'object', properties: { map: { type: 'object', additionalProperties: { type: 'string' } } } },
        /free-form object/,
      ],
      [{ type: 'object', properties: { value: {} } }, /unconstrained value/],
      [{ type: 'object', properties: { n: { $ref: '#' } } }, /recursive \$ref/],
      [{ type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } }, /tuple/],
    ];
    for (const [schema, reason] of cases) {
      const reports: string[] = [];
      const [definition] = toOpenAITools([tool('t', schema)], {
        strict: true,
        onReport: (report) => reports.push(report.strictFallbackReason ?? ''),
      });
      expect(definition?.function.strict).toBe(false);
      expect(reports[0]).toMatch(reason);
      expect(validateOpenAITool(definition!)).toEqual([]);
    }
  });

  it('produces both API shapes', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    };
    const [chat] = toOpenAITools([tool('t', schema)], { strict: true });
    const [responses] = toOpenAITools([tool('t', schema, '')], { api: 'responses' });
    expect(chat).toMatchObject({
      type: 'function',
      function: { name: 't', description: 'A tool', strict: true },
    });
    expect(responses).toEqual({
      type: 'function',
      name: 't',
      description: null,
      parameters: { ...schema },
      strict: false,
    });
  });
});

describe('Anthropic input_schema', () => {
  it('merges a top-level oneOf into one object, keeping only the keys every branch requires', () => {
    const lost: string[] = [];
    const [definition] = toAnthropicTools(
      [
        tool('t', {
          type: 'object',
          oneOf: [
            { properties: { id: { type: 'string' }, kind: { const: 'a' } }, required: ['id', 'kind'] },
            { properties: { url: { type: 'string' }, kind: { const: 'b' } }, required: ['url', 'kind'] },
          ],
        }),
      ],
      { onReport: (report) => lost.push(...report.lost) },
    );
    expect(definition?.input_schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, kind: { const: 'a' }, url: { type: 'string' } },
      required: ['kind'],
    });
    expect(lost[0]).toMatch(/^top-level oneOf merged into one object/);
  });

  it('renames top-level argument keys Anthropic rejects', () => {
    const [definition] = toAnthropicTools([
      tool('t', {
        type: 'object',
        properties: { 'filter[id]': { type: 'string' }, ok: { type: 'string' } },
        required: ['filter[id]'],
      }),
    ]);
    expect(Object.keys(definition?.input_schema.properties as object)).toEqual(['filter_id_', 'ok']);
    expect(definition?.input_schema.required).toEqual(['filter_id_']);
  });
});

describe('OpenAI strict mode with nullable enums', () => {
  it('adds null to the enum of a nullable enum property', () => {
    const result = toOpenAIStrictSchema(
      {
        type: 'object',
        properties: { mode: { type: ['string', 'null'], enum: ['a', 'b'] } },
        required: ['mode'],
      },
      new LossLog(),
    );
    expect('schema' in result && result.schema.properties).toEqual({
      mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
    });
  });
});
