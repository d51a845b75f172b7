import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { TOOL_NAME_PATTERN } from '../../src/registry/tool-name.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import { namesOnlyProvider } from './router-test-helpers.js';

describe('per-server resource tool names', () => {
  it('stay legal and distinct for odd and long server names, and skip disabled servers', () => {
    const long = 'a-very-long-server-name-that-goes-on-and-on-and-on-forever';
    const provider = namesOnlyProvider({
      'my.server': 'connected',
      my_server: 'connected',
      [long]: 'error',
      off: 'disabled',
    });
    const tools = createRouterTools(provider, new ToolRegistry(), { perServerResourceTools: true });
    const perServer = tools.filter((tool) => tool.server !== undefined);
    expect(perServer).toHaveLength(6);
    const names = perServer.map((tool) => tool.name);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names).size).toBe(6);
    expect(names).toContain('mcp__my_server__list_resources');
    const dotted = perServer.find((tool) => tool.server === 'my.server' && tool.name.includes('list'));
    // An illegal server name gets a hashed server part, the same for both of its tools.
    expect(dotted?.name).toMatch(/^mcp__my_server_[0-9a-f]{6}__list_resources$/);
    const dottedRead = perServer.find((tool) => tool.server === 'my.server' && tool.name.includes('read'));
    expect(dottedRead?.name).toBe(dotted?.name.replace('list_resources', 'read_resource'));
    expect(perServer.some((tool) => tool.server === 'off')).toBe(false);
    expect(new Set(perServer.map((tool) => tool.server))).toEqual(new Set(['my.server', 'my_server', long]));
  });

  it('are absent unless asked for', () => {
    const provider = namesOnlyProvider({ files: 'connected' });
    expect(
      createRouterTools(provider, new ToolRegistry()).some((tool) => tool.name.startsWith('mcp__')),
    ).toBe(false);
  });
});
