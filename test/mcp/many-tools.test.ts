import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { TOOL_NAME_PATTERN } from '../../src/registry/tool-name.js';
import { AWKWARD_TOOL_NAMES, MANY_TOOL_NAMES } from '../fixtures/servers/many-tools-names.js';
import { stdioFixture, textOf } from './hub-test-helpers.js';

describe('200 tools with awkward, long and colliding names', () => {
  let registry: ToolRegistry;
  let provider: McpToolHub;

  beforeAll(async () => {
    registry = new ToolRegistry();
    // `twin` uses `many`'s prefix on purpose: every one of its 200 names collides with one of `many`.
    provider = await loadMcpServers(
      {
        servers: {
          many: stdioFixture('many-tools', [], { protocol: '2025' }),
          twin: stdioFixture('many-tools', [], {
            protocol: '2025',
            prefix: 'many',
            tools: { deny: ['music_*'] },
          }),
        },
      },
      registry,
    );
  });

  afterAll(async () => {
    await provider?.close();
  });

  it('registers every tool under a legal, unique name', () => {
    const names = registry.names();
    const twinCount = MANY_TOOL_NAMES.filter((name) => !name.startsWith('music_')).length;
    expect(names.length).toBe(200 + twinCount);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(provider.status('many')?.toolCount).toBe(200);
  });

  it('keeps plain names readable and labels original', () => {
    const plain = registry.get('many__weather_tool_000');
    expect(plain?.label).toBe('weather_tool_000');
    expect(plain?.originalName).toBe('weather_tool_000');
  });

  it('applies per-server allow/deny globs to original names', () => {
    const twinTools = registry.list().filter((row) => row.server === 'twin');
    expect(twinTools.some((row) => row.originalName?.startsWith('music_'))).toBe(false);
    expect(
      registry.list().some((row) => row.server === 'many' && row.originalName?.startsWith('music_')),
    ).toBe(true);
  });

  it('routes every exposed name back to its server and original name', async () => {
    const origins = new Map<string, string>();
    for (const name of registry.names()) {
      const origin = provider.toolOrigin?.(name);
      expect(origin).toBeDefined();
      const key = `${origin!.server}/${origin!.originalName}`;
      expect(origins.has(key)).toBe(false);
      origins.set(key, name);
    }
    for (const original of AWKWARD_TOOL_NAMES) {
      for (const server of ['many', 'twin']) {
        const exposed = origins.get(`${server}/${original}`);
        expect(exposed, `${server}/${original}`).toBeDefined();
        const result = await registry.get(exposed!)!.execute('1', { text: server });
        expect(textOf(result)).toBe(`${original}: ${server}`);
      }
    }
  });

  it('gives the same names again after a refresh', async () => {
    const before = registry.names().sort();
    await provider.refresh();
    expect(registry.names().sort()).toEqual(before);
  });
});
