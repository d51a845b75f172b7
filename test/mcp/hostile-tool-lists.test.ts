import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { MAX_SCHEMA_DEPTH, oversize, screenToolDefinitions } from '../../src/mcp/screen-tool-definitions.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import { takePage } from '../../src/router/tool-index-page.js';
import { stdioFixture, textOf } from './hub-test-helpers.js';

describe('one hostile tool definition costs only that tool', () => {
  const registry = new ToolRegistry();
  const warnings: string[] = [];
  let provider: McpToolHub;

  beforeAll(async () => {
    provider = await loadMcpServers(
      {
        servers: {
          // The schemas are written raw: the SDK's own validation overflows its stack on them.
          deep: stdioFixture('hostile', ['--deep-schema', '3000']),
          // test/reliability/ runs the 4.8 MB case the issue reported.
          huge: stdioFixture('hostile', ['--huge-schema', '1']),
          wide: stdioFixture('hostile', ['--huge-schema', '0.1']),
        },
      },
      registry,
      { connectTimeoutMs: 60_000 },
    );
    provider.on('warning', (message) => warnings.push(message));
    // Warnings of the first listing went out before this listener: list again.
    await Promise.all([provider.refresh('deep'), provider.refresh('huge')]);
  });

  afterAll(async () => {
    await provider?.close();
  });

  it('keeps the server of a schema nested 3,000 levels deep connected, with every tool', async () => {
    expect(provider.status('deep')).toMatchObject({ state: 'connected', toolCount: 10 });
    expect(textOf(await registry.get('deep__ok')!.execute('1', {}))).toBe('ok');
    const tool = registry.get('deep__deep_schema')!;
    expect(JSON.stringify(tool.parameters)).toContain('nested deeper than 64 levels');
    expect(textOf(await tool.execute('2', { a: { a: {} } }))).toBe('called deep_schema');
    expect(warnings.some((warning) => warning.includes('tool "deep_schema" of "deep"'))).toBe(true);
  });

  it('replaces a 1 MB schema by an open one, naming the tool', async () => {
    const tool = registry.get('huge__huge_schema')!;
    expect(JSON.stringify(tool.parameters).length).toBeLessThan(1000);
    expect(
      warnings.some((warning) =>
        /tool "huge_schema" of "huge": its input schema is larger than/.test(warning),
      ),
    ).toBe(true);
    expect(textOf(await tool.execute('1', {}))).toBe('called huge_schema');
  });

  it('keeps tool_index inside its 32 KiB budget when one entry alone is larger', async () => {
    const toolIndex = createRouterTools(provider, registry).find((tool) => tool.name === 'tool_index')!;
    // A 100 KiB schema passes the screening but cannot fit one response.
    expect(JSON.stringify(registry.get('wide__huge_schema')!.parameters).length).toBeGreaterThan(64 * 1024);
    const result = await toolIndex.execute('1', { server: 'wide', include_schemas: true, search: 'schema' });
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(32 * 1024);
    expect(text).toContain('input_schema omitted: this entry is');
    expect(text).toContain('wide__huge_schema');
  });
});

describe('screenToolDefinitions', () => {
  it('drops nameless tools, trims deep or large schemas, drops such output schemas, cuts descriptions', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < MAX_SCHEMA_DEPTH + 5; level++)
      deep = { type: 'object', properties: { a: deep } };
    const { tools, warnings } = screenToolDefinitions(
      [
        { description: 'no name', inputSchema: { type: 'object' } },
        { name: 'fine', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
        { name: 'deep_out', inputSchema: { type: 'object' }, outputSchema: deep },
        { name: 'wordy', inputSchema: { type: 'object' }, description: 'w'.repeat(70_000) },
        { name: 'not_object', inputSchema: 'string' },
      ],
      'srv',
    );
    expect(tools.map((tool) => tool.name)).toEqual(['fine', 'deep_out', 'wordy', 'not_object']);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(tools[1]!.outputSchema).toBeUndefined();
    expect(tools[2]!.description!.length).toBeLessThan(70_000);
    expect(tools[3]!.inputSchema.type).toBe('object');
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toBe('tool #0 of "srv" has no name and was skipped');
  });

  it('measures a schema a million levels deep without recursion', () => {
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 1_000_000; level++) deep = { a: deep };
    expect(oversize(deep)).toBe('is nested deeper than 64 levels');
  });
});

describe('takePage', () => {
  it('omits the schema of an entry that alone exceeds the budget, with a notice', () => {
    const big = { name: 'big', description: 'd', category: 'c', input_schema: { blob: 'x'.repeat(50_000) } };
    const page = takePage(1, () => big, 0, 10, 32 * 1024, 200);
    expect(page.entries[0]!.input_schema).toBeUndefined();
    expect(page.entries[0]!.schema_omitted).toMatch(
      /^input_schema omitted: this entry is 48\.\d KiB, over the 32\.0 KiB budget/,
    );
  });
});
