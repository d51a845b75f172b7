import { describe, expect, it } from 'vitest';
import type { GeminiFunctionDeclaration } from '../../src/providers/gemini-tools.js';
import type { OpenAIChatTool } from '../../src/providers/openai-tools.js';
import { validateAnthropicTool } from '../../src/providers/validate/validate-anthropic-tool.js';
import { validateGeminiDeclaration } from '../../src/providers/validate/validate-gemini-declaration.js';
import { validateOpenAITool } from '../../src/providers/validate/validate-openai-tool.js';

describe('validators reject what the providers reject', () => {
  it('OpenAI: bad name, missing properties and items, strict rule breaks', () => {
    const loose: OpenAIChatTool = {
      type: 'function',
      function: { name: 'bad name', parameters: { type: 'object', properties: { a: { type: 'array' } } } },
    };
    const problems = validateOpenAITool(loose);
    expect(problems.some((problem) => problem.includes('breaks ^[a-zA-Z0-9_-]{1,64}$'))).toBe(true);
    expect(problems).toContain('/properties/a: array schema missing items');
    expect(
      validateOpenAITool({ type: 'function', function: { name: 'x', parameters: { type: 'object' } } }),
    ).toContain('/: object schema missing properties');
    const strict: OpenAIChatTool = {
      type: 'function',
      function: {
        name: 'x',
        strict: true,
        parameters: {
          type: 'object',
          properties: {
            a: { type: 'string', default: 'z', format: 'uri' },
            b: { type: 'object', properties: {} },
          },
          required: ['a'],
        },
      },
    };
    expect(validateOpenAITool(strict)).toEqual(
      expect.arrayContaining([
        '/: objects need additionalProperties: false',
        '/: every property must be listed in required',
        '/properties/a: keyword default is not supported in strict mode',
        '/properties/a: format uri is not supported in strict mode',
        '/properties/b: objects need additionalProperties: false',
      ]),
    );
  });

  it('Anthropic: top-level unions, bad property keys and invalid JSON Schema', () => {
    const problems = validateAnthropicTool({
      name: 'ok',
      input_schema: { type: 'object', anyOf: [], properties: { 'a b': { type: 'nope' } } },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        '/: input_schema does not support anyOf at the top level',
        '/properties: key "a b" breaks ^[a-zA-Z0-9_.-]{1,64}$',
      ]),
    );
    expect(problems.some((problem) => problem.includes('invalid JSON Schema'))).toBe(true);
  });

  it('Gemini: lower-case types, $ref, type beside anyOf, empty properties, bad enum and format', () => {
    const declaration = {
      name: '9lives',
      parameters: {
        type: 'OBJECT',
        properties: {
          a: { type: 'string' },
          b: { $ref: '#/x' },
          c: { type: 'STRING', anyOf: [{ type: 'NUMBER' }] },
          d: { type: 'OBJECT', properties: {} },
          e: { type: 'INTEGER', enum: ['1'] },
          f: { type: 'STRING', format: 'uri' },
          g: { type: 'ARRAY' },
        },
        required: ['zz'],
      },
    } as unknown as GeminiFunctionDeclaration;
    expect(validateGeminiDeclaration(declaration)).toEqual(
      expect.arrayContaining([
        '/: name "9lives" breaks the Gemini rule',
        '/properties/a: invalid type "string"',
        '/properties/b: unknown field $ref',
        '/properties/c: type and anyOf cannot be both populated',
        '/properties/d: properties: should be non-empty for OBJECT type',
        '/properties/e: enum is only allowed on STRING',
        '/properties/f: format uri is not supported for STRING',
        '/properties/g: ARRAY needs items',
        '/: required "zz" is not a property',
      ]),
    );
  });
});
