import { describe, expect, it } from 'vitest';
import { toAnthropicTools } from '../../src/providers/anthropic-tools.js';
import { toOpenAITools } from '../../src/providers/openai-tools.js';
import { createProviderToolCaller } from '../../src/providers/provider-tool-caller.js';
import { stripStrictNulls } from '../../src/providers/strip-strict-nulls.js';
import { jsonResult } from '../../src/tool/result.js';
import type { Tool } from '../../src/tool/tool.js';

const received: Array<Record<string, unknown>> = [];
const search: Tool = {
  name: 'web.search',
  description: 'Search',
  parameters: {
    type: 'object',
    properties: {
      'filter[id]': { type: 'string' },
      query: { type: 'string' },
      limit: { type: 'integer' },
      cursor: { type: ['string', 'null'] },
      options: { type: 'object', properties: { safe: { type: 'boolean' } } },
    },
    required: ['query'],
  },
  execute: async (_id, params) => {
    received.push(params);
    return jsonResult(params);
  },
};
const failing: Tool = {
  name: 'boom',
  description: 'Throws',
  parameters: { type: 'object' },
  execute: async () => {
    throw new Error('kaput');
  },
};

describe('routing provider tool calls back to tools', () => {
  it('maps a renamed tool and renamed argument keys back to the originals', async () => {
    const [definition] = toAnthropicTools([search]);
    const caller = createProviderToolCaller([search], 'anthropic');
    const result = await caller.call(definition!.name, 'call-1', { filter_id_: 'x', query: 'q' });
    expect(result.isError).toBeUndefined();
    expect(received.at(-1)).toEqual({ 'filter[id]': 'x', query: 'q' });
  });

  it('parses OpenAI JSON-string arguments and removes the nulls strict mode adds for omitted values', async () => {
    const [definition] = toOpenAITools([search], { strict: true });
    expect(definition?.function.strict).toBe(true);
    const caller = createProviderToolCaller([search], 'openai', { strict: true });
    const args = JSON.stringify({
      'filter[id]': null,
      query: 'q',
      limit: null,
      cursor: null,
      options: { safe: null },
    });
    await caller.call(definition!.function.name, 'call-2', args);
    // `cursor` accepted null in the original schema, so its null is the model's real answer.
    expect(received.at(-1)).toEqual({ query: 'q', cursor: null, options: {} });
  });

  it('returns isError results for unknown tools, bad JSON and throwing tools', async () => {
    const caller = createProviderToolCaller([search, failing], 'openai');
    expect((await caller.call('nope', 'c', '{}')).content).toEqual([
      { type: 'text', text: 'Unknown tool: nope' },
    ]);
    expect((await caller.call('boom', 'c', '{not json')).isError).toBe(true);
    const thrown = await caller.call('boom', 'c', '{}');
    expect(thrown).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Tool boom failed: kaput' }],
    });
  });

  it('stripStrictNulls keeps required nulls and follows $ref', () => {
    const schema = {
      type: 'object' as const,
      properties: { a: { $ref: '#/$defs/s' }, b: { type: 'string' } },
      required: ['b'],
      $defs: { s: { type: 'string' } },
    };
    expect(stripStrictNulls({ a: null, b: null }, schema)).toEqual({ b: null });
  });
});
