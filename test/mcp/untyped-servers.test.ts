import { describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';

describe('loadMcpServers with entries written as Claude Desktop writes them', () => {
  it('starts a server given by command and args alone, as stdio', async () => {
    // What a JavaScript caller passes straight from a host's file: no `type`.
    const config = { servers: { echo: fixtureCommand('echo') } } as unknown as McpToolsConfig;
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(config, registry);
    try {
      expect(provider.status('echo')).toMatchObject({ state: 'connected', transport: 'stdio' });
      expect(registry.names()).toContain('echo__echo');
    } finally {
      await provider.close();
    }
  });
});
