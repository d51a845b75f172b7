import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import { TOOL_NAME_PATTERN } from '../../src/registry/tool-name.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));

describe('plugin tools beside MCP tools', () => {
  it('land in the same resolveAll() list, run through the same registry and filters, and never clash', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers({ servers: { echo: stdioFixture('echo') } }, registry);
    try {
      expect(provider.status().find((status) => status.name === 'echo')?.state).toBe('connected');
      const { plugins } = await loadOpenClawPlugins(
        [`${fixtures}mcp-clash-plugin.mjs`, `${fixtures}esm-plugin.mjs`],
        registry,
      );
      expect(plugins[0]?.tools).toEqual(['mcp-clash__echo__echo', 'plugin_only']);
      const tools = await registry.resolveAll({ workspaceDir: process.cwd() });
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('echo__echo')?.source).toBe('mcp');
      expect(byName.get('mcp-clash__echo__echo')).toMatchObject({
        source: 'plugin',
        originalName: 'echo__echo',
      });
      expect(byName.get('esm_sum')?.source).toBe('plugin');
      for (const tool of tools) expect(tool.name).toMatch(TOOL_NAME_PATTERN);
      expect(textOf(await byName.get('echo__echo')!.execute('m1', { text: 'over stdio' }))).toBe(
        'over stdio',
      );
      expect(textOf(await byName.get('mcp-clash__echo__echo')!.execute('p1', {}))).toBe('from the plugin');
      expect(JSON.parse(textOf(await byName.get('esm_sum')!.execute('p2', { a: 1, b: 2 })))).toEqual({
        sum: 3,
      });
      // One filter for both kinds of tool.
      registry.setFilter({ deny: ['echo__*', 'esm_*'] });
      const remaining = (await registry.resolveAll()).map((tool) => tool.name);
      expect(remaining).toContain('plugin_only');
      expect(remaining).toContain('mcp-clash__echo__echo');
      expect(remaining.some((name) => name.startsWith('echo__') || name.startsWith('esm_'))).toBe(false);
    } finally {
      await provider.close();
    }
  });
});
