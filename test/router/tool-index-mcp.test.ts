import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createToolIndexTool } from '../../src/router/tool-index-tool.js';
import type { Tool } from '../../src/tool/tool.js';
import { publishedServers, stdioPackage } from '../mcp/hub-test-helpers.js';

interface Entry {
  name: string;
  category: string;
  server?: string;
  read_only?: boolean;
  input_schema?: Record<string, unknown>;
}

async function call(tool: Tool, params: Record<string, unknown> = {}) {
  const result = await tool.execute('test', params);
  return result.details as {
    tools: Entry[];
    total: number;
    catalog: { tools: number; tokens_compact: number };
  };
}

describe('tool_index over real MCP servers and a native tool', () => {
  let registry: ToolRegistry;
  let provider: McpToolHub;
  let workspace: string;

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'mcptools-index-'));
    registry = new ToolRegistry();
    registry.register({
      name: 'clock',
      description: 'Tell the current time.',
      parameters: { type: 'object' },
      readOnly: true,
      execute: async () => ({ content: [{ type: 'text', text: new Date().toISOString() }] }),
    });
    provider = await loadMcpServers(
      {
        servers: {
          fs: stdioPackage(publishedServers.filesystem, [workspace]),
          memory: stdioPackage(publishedServers.memory, [], {
            env: { MEMORY_FILE_PATH: join(workspace, 'memory.jsonl') },
          }),
        },
      },
      registry,
      { workspaceDir: workspace },
    );
  }, 60_000);

  afterAll(async () => {
    await provider?.close();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  it('lists MCP and native tools together with their servers and read-only hints', async () => {
    const listing = await call(createToolIndexTool(registry));
    const names = listing.tools.map((entry) => entry.name);
    expect(names).toContain('clock');
    expect(names).toContain('fs__read_text_file');
    expect(names).toContain('memory__create_entities');
    expect(listing.catalog.tools).toBe(registry.list().filter((row) => row.enabled).length);
    const readText = listing.tools.find((entry) => entry.name === 'fs__read_text_file');
    expect(readText).toMatchObject({ server: 'fs', category: 'fs', read_only: true });
    expect(listing.tools.find((entry) => entry.name === 'fs__write_file')?.read_only).toBe(false);
  });

  it('ranks the right server tool first and shows its real input schema', async () => {
    const toolIndex = createToolIndexTool(registry);
    const found = await call(toolIndex, {
      search: 'read the contents of a text file',
      include_schemas: true,
      limit: 3,
    });
    expect(found.tools[0]?.name).toBe('fs__read_text_file');
    expect(found.tools[0]?.input_schema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' } },
    });
    const remembered = await call(toolIndex, {
      search: 'remember that Ada reports to Grace',
      server: 'memory',
    });
    expect(remembered.tools.length).toBeGreaterThan(0);
    expect(remembered.tools.every((entry) => entry.server === 'memory')).toBe(true);
  });
});
