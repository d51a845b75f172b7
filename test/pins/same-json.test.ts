import { describe, expect, it } from 'vitest';
import { canonicalView, pinnedView, sameView } from '../../src/pins/definition-fingerprint.js';
import { sameJson } from '../../src/pins/same-json.js';

const known = (value: Record<string, unknown>) => JSON.parse(canonicalView(value));

describe('sameJson', () => {
  const tool = {
    name: 'get',
    description: 'Reads a page.',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  };

  it('holds for the same definition in another key order (the control)', () => {
    const reordered = {
      inputSchema: { required: ['url'], properties: { url: { type: 'string' } }, type: 'object' },
      description: 'Reads a page.',
      name: 'get',
    };
    expect(sameJson(structuredClone(tool), known(tool))).toBe(true);
    expect(sameJson(reordered, known(tool))).toBe(true);
  });

  it('fails on any change of a value, a key or a type', () => {
    const variants: unknown[] = [
      { ...tool, description: 'Reads a page. ' },
      { ...tool, title: 'Get' },
      { name: tool.name, description: tool.description },
      { ...tool, inputSchema: { ...tool.inputSchema, required: ['url', 'id'] } },
      { ...tool, inputSchema: { ...tool.inputSchema, required: 'url' } },
      { ...tool, inputSchema: { ...tool.inputSchema, required: { 0: 'url' } } },
      // An `undefined` member is left to the canonical path (it serialises as absent).
      { ...tool, title: undefined },
      { ...tool, description: new String('Reads a page.') },
    ];
    for (const variant of variants)
      expect(sameJson(variant, known(tool)), JSON.stringify(variant)).toBe(false);
  });
});

describe('sameView', () => {
  const tool = { name: 'get', description: 'Reads a page.', inputSchema: { type: 'object' } };
  const known = JSON.parse(canonicalView(pinnedView('tool', tool)));

  it('compares only the pinned fields, less the ignored ones', () => {
    expect(sameView('tool', { ...tool, execution: { taskSupport: 'optional' } }, [], known)).toBe(true);
    expect(sameView('tool', { ...tool, title: 'Get' }, [], known)).toBe(false);
    expect(sameView('tool', { ...tool, description: 'Reads a page!' }, [], known)).toBe(false);
    const ignored = JSON.parse(canonicalView(pinnedView('tool', tool, ['description'])));
    expect(sameView('tool', { ...tool, description: 'today' }, ['description'], ignored)).toBe(true);
    expect(sameView('tool', tool, [], ignored)).toBe(false);
  });
});
