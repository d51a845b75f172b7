import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { countTokens } from '../../src/router/token-count.js';
import { shortDescription } from '../../src/router/tool-index-entry.js';
import { createToolIndexTool } from '../../src/router/tool-index-tool.js';
import type { Tool } from '../../src/tool/tool.js';
import { CORPUS_TOOLS, corpusRegistry, corpusTool } from './tool-index-corpus.js';

interface IndexResponse {
  tools: {
    name: string;
    description: string;
    category: string;
    server?: string;
    read_only?: boolean;
    input_schema?: unknown;
  }[];
  count: number;
  total: number;
  truncated: boolean;
  next_cursor?: string;
  catalog: { tools: number; tokens_compact: number; tokens_full: number };
  categories: { name: string; count: number }[];
  hint?: string;
  error?: { type: string; msg: string };
}

async function call(tool: Tool, params: Record<string, unknown> = {}) {
  const result = await tool.execute('test', params);
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return { result, text, response: JSON.parse(text) as IndexResponse };
}

describe('tool_index', () => {
  it('is a read-only router tool with a short definition', async () => {
    const tool = createToolIndexTool(new ToolRegistry());
    expect(tool.name).toBe('tool_index');
    expect(tool.readOnly).toBe(true);
    expect(tool.source).toBe('router');
    const definition = JSON.stringify({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    });
    expect(await countTokens(definition)).toBeLessThanOrEqual(300);
    expect(createToolIndexTool(new ToolRegistry(), { name: 'find_tools' }).name).toBe('find_tools');
  });

  it('lists every tool in catalog order, compact by default, and states the catalog size', async () => {
    const { response, result } = await call(createToolIndexTool(corpusRegistry()));
    expect(response.tools.map((entry) => entry.name)).toEqual(
      CORPUS_TOOLS.map((tool) => corpusTool(tool).name),
    );
    expect(response.count).toBe(CORPUS_TOOLS.length);
    expect(response.total).toBe(CORPUS_TOOLS.length);
    expect(response.truncated).toBe(false);
    expect(response.next_cursor).toBeUndefined();
    expect(response.catalog.tools).toBe(CORPUS_TOOLS.length);
    expect(response.catalog.tokens_compact).toBeGreaterThan(0);
    expect(response.catalog.tokens_full).toBeGreaterThan(response.catalog.tokens_compact * 2);
    // The counts are exact: the o200k tokens of the whole catalog's entries in each tier.
    expect(response.catalog.tokens_compact).toBe(await countTokens(JSON.stringify(response.tools)));
    expect(response.categories).toContainEqual({ name: 'server-slack', count: 8 });
    expect(result.details).toEqual(response);
    for (const entry of response.tools) {
      expect(entry.input_schema).toBeUndefined();
      expect(entry.description.length).toBeLessThanOrEqual(160);
    }
  });

  it('states the size of only the part of the catalog a caller may see', async () => {
    const registry = corpusRegistry();
    const whole = (await call(createToolIndexTool(registry))).response;
    const slack = (tool: Tool) => tool.server === 'server-slack';
    const { response } = await call(createToolIndexTool(registry, { toolVisible: slack }));
    expect(response.tools.length).toBeGreaterThan(0);
    expect(response.tools.every((entry) => entry.server === 'server-slack')).toBe(true);
    expect(response.catalog.tools).toBe(response.tools.length);
    // Exact, and the size of what this caller sees, not of the whole catalog.
    expect(response.catalog.tokens_compact).toBe(await countTokens(JSON.stringify(response.tools)));
    expect(response.catalog.tokens_compact).toBeLessThan(whole.catalog.tokens_compact);
    expect(response.catalog.tokens_full).toBeLessThan(whole.catalog.tokens_full);
  });

  it('has the same keys in both tiers, with input_schema only in the full one', async () => {
    const tool = createToolIndexTool(corpusRegistry());
    const compact = (await call(tool, { search: 'read a file', limit: 3 })).response;
    const full = (await call(tool, { search: 'read a file', limit: 3, include_schemas: true })).response;
    const wholeFull = (await call(tool, { include_schemas: true })).response;
    expect(wholeFull.truncated).toBe(false);
    expect(wholeFull.catalog.tokens_full).toBe(await countTokens(JSON.stringify(wholeFull.tools)));
    expect(full.tools.map((entry) => entry.name)).toEqual(compact.tools.map((entry) => entry.name));
    expect(Object.keys(full).sort()).toEqual(Object.keys(compact).sort());
    full.tools.forEach((entry, index) => {
      const { input_schema, ...rest } = entry;
      expect(input_schema).toMatchObject({ type: 'object' });
      expect(Object.keys(rest).sort()).toEqual(Object.keys(compact.tools[index]!).sort());
    });
  });

  it('ranks a search and filters by category and server', async () => {
    const tool = createToolIndexTool(corpusRegistry());
    const ranked = (await call(tool, { search: 'send a message to a slack channel' })).response;
    expect(ranked.tools[0]?.name).toBe('server-slack__slack_post_message');
    expect(ranked.count).toBeLessThanOrEqual(10);
    const maps = (await call(tool, { category: 'server-google-maps' })).response;
    expect(maps.tools).toHaveLength(7);
    expect(maps.tools.every((entry) => entry.category === 'server-google-maps')).toBe(true);
    const githubSearch = (await call(tool, { search: 'file', server: 'server-github' })).response;
    expect(githubSearch.tools.length).toBeGreaterThan(0);
    expect(githubSearch.tools.every((entry) => entry.server === 'server-github')).toBe(true);
  });

  it('answers an unknown category with an empty list and the categories that exist', async () => {
    const { response, result } = await call(createToolIndexTool(corpusRegistry()), { category: 'nope' });
    expect(result.isError).toBeUndefined();
    expect(response.tools).toEqual([]);
    expect(response.hint).toContain('server-filesystem');
    expect(response.hint).toContain('nope');
  });

  it('answers a search that matches nothing with a hint on how to search', async () => {
    const { response } = await call(createToolIndexTool(corpusRegistry()), { search: 'xyzzy frobnicate' });
    expect(response.tools).toEqual([]);
    expect(response.hint).toMatch(/^No tool matched "xyzzy frobnicate"\. Name the action and its object/);
    const found = (await call(createToolIndexTool(corpusRegistry()), { search: 'read file' })).response;
    expect(found.hint).toBeUndefined();
  });

  it('cuts past the byte budget at a whole entry and pages through every tool exactly once', async () => {
    const tool = createToolIndexTool(corpusRegistry(), { maxResponseBytes: 4096 });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { response, text } = await call(tool, { include_schemas: true, ...(cursor ? { cursor } : {}) });
      pages++;
      if (response.tools.length > 1) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      expect(response.truncated).toBe(response.next_cursor !== undefined);
      seen.push(...response.tools.map((entry) => entry.name));
      cursor = response.next_cursor;
    } while (cursor !== undefined && pages < 100);
    expect(pages).toBeGreaterThan(3);
    expect(seen).toEqual(CORPUS_TOOLS.map((entry) => corpusTool(entry).name));
  });

  it('refuses a cursor from another query and bad arguments as isError results', async () => {
    const tool = createToolIndexTool(corpusRegistry(), { maxResponseBytes: 2048 });
    const first = (await call(tool, {})).response;
    expect(first.next_cursor).toBeDefined();
    const mismatched = await call(tool, { search: 'file', cursor: first.next_cursor });
    expect(mismatched.result.isError).toBe(true);
    expect(mismatched.response.error?.type).toBe('InvalidArguments');
    expect((await call(tool, { limit: 0 })).result.isError).toBe(true);
    expect((await call(tool, { cursor: 'garbage' })).result.isError).toBe(true);
    expect((await call(tool, { colour: 'red' })).result.isError).toBe(true);
  });

  it('sees registry changes: new tools become searchable, removed ones vanish', async () => {
    const registry = corpusRegistry();
    const tool = createToolIndexTool(registry);
    // WordNet synonyms may still match a few tools weakly (`calculate` → `forecast`), but no weather tool.
    const names = async () =>
      (await call(tool, { search: 'weather forecast' })).response.tools.map((entry) => entry.name);
    expect(await names()).not.toContain('weather__forecast');
    const before = (await call(tool)).response.catalog;
    registry.register({
      name: 'weather__forecast',
      description: 'Get the weather forecast for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      server: 'weather',
      execute: async () => ({ content: [] }),
    });
    const found = (await call(tool, { search: 'weather forecast' })).response;
    expect(found.tools[0]?.name).toBe('weather__forecast');
    expect(found.catalog.tools).toBe(before.tools + 1);
    expect(found.catalog.tokens_compact).toBeGreaterThan(before.tokens_compact);
    registry.unregister('weather__forecast');
    expect(await names()).not.toContain('weather__forecast');
  });

  it('lists native, plugin and factory tools, never router tools or disabled ones', async () => {
    const registry = new ToolRegistry({ deny: ['hidden*'] });
    const base = { parameters: { type: 'object' as const }, execute: async () => ({ content: [] }) };
    registry.register({ ...base, name: 'native_tool', description: 'A native tool.' });
    registry.register({
      ...base,
      name: 'plugin_tool',
      description: 'A plugin tool.',
      source: 'plugin',
      category: 'demo-plugin',
    });
    registry.register(() => ({ ...base, name: 'made_tool', description: 'Made by a factory.' }), {
      name: 'made_tool',
    });
    registry.register(
      () => {
        throw new Error('factory failed');
      },
      { name: 'broken_tool' },
    );
    registry.register({ ...base, name: 'call_tool', description: 'Router.', source: 'router' });
    registry.register({ ...base, name: 'hidden_tool', description: 'Denied by a filter.' });
    const { response } = await call(createToolIndexTool(registry));
    expect(response.tools.map((entry) => entry.name)).toEqual(['native_tool', 'plugin_tool', 'made_tool']);
    expect(response.categories).toContainEqual({ name: 'demo-plugin', count: 1 });
  });

  it('lists only read-only tools in plan mode', async () => {
    let planning = true;
    const tool = createToolIndexTool(corpusRegistry(), { planMode: () => planning });
    const planned = (await call(tool, { category: 'server-memory' })).response;
    expect(planned.tools.map((entry) => entry.name)).toEqual([
      'server-memory__read_graph',
      'server-memory__search_nodes',
      'server-memory__open_nodes',
    ]);
    planning = false;
    expect((await call(tool, { category: 'server-memory' })).response.tools).toHaveLength(9);
  });

  it('does not list ownerOnly tools to a sender who is not the owner', async () => {
    const registry = new ToolRegistry();
    const base = { parameters: { type: 'object' as const }, execute: async () => ({ content: [] }) };
    registry.register({ ...base, name: 'rotate_keys', description: 'Rotate keys.', ownerOnly: true });
    registry.register({ ...base, name: 'list_keys', description: 'List keys.' });
    let owner = false;
    const tool = createToolIndexTool(registry, { senderIsOwner: () => owner });
    const stranger = (await call(tool, { search: 'keys' })).response;
    expect(stranger.tools.map((entry) => entry.name)).toEqual(['list_keys']);
    expect(stranger.categories).toEqual([{ name: 'native', count: 1 }]);
    owner = true;
    const names = (await call(tool, { search: 'keys' })).response.tools.map((entry) => entry.name);
    expect(names.sort()).toEqual(['list_keys', 'rotate_keys']);
  });
});

describe('tool_index in the compact result format', () => {
  it('renders the compact two lines and keeps the JSON in details', async () => {
    const tool = createToolIndexTool(corpusRegistry(), { format: 'compact', maxResponseBytes: 2048 });
    const result = await tool.execute('test', {});
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^⚠️ mcp tool index: \d+ of 53 tools$/);
    expect(lines[1]).toMatch(/^\s*state: partial \| data: /);
    expect((result.details as { truncated: boolean }).truncated).toBe(true);
  });
});

describe('shortDescription', () => {
  it('keeps the first sentence and cuts long ones at a word boundary', () => {
    expect(shortDescription('Read a file. Then more text.')).toBe('Read a file.');
    expect(shortDescription('Uses v1.2 of the API. Done.')).toBe('Uses v1.2 of the API.');
    const long = shortDescription(`${'word '.repeat(60)}end.`);
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long.endsWith('…')).toBe(true);
    expect(long).not.toContain('wor…');
  });
});
