import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { httpServer, stdioFixture, textOf } from './hub-test-helpers.js';

interface Variant {
  label: string;
  era: 'legacy' | 'modern';
  start: () => Promise<{ config: ServerConfig; fixture?: HttpFixture }>;
}

const variants: Variant[] = [
  {
    label: 'stdio, 2025 era (tools/list_changed)',
    era: 'legacy',
    start: async () => ({ config: stdioFixture('changing', ['--era', 'legacy']) }),
  },
  {
    label: 'stdio, 2026-07-28 (subscriptions/listen)',
    era: 'modern',
    start: async () => ({ config: stdioFixture('changing', [], { protocol: '2026-07-28' }) }),
  },
  {
    label: 'Streamable HTTP, 2025 era (tools/list_changed)',
    era: 'legacy',
    start: async () => {
      const fixture = await startHttpFixture('changing', ['--era', 'legacy']);
      return { config: httpServer(fixture.url), fixture };
    },
  },
  {
    label: 'Streamable HTTP, 2026-07-28 (subscriptions/listen)',
    era: 'modern',
    start: async () => {
      const fixture = await startHttpFixture('changing');
      return { config: httpServer(fixture.url, { protocol: '2026-07-28' }), fixture };
    },
  },
];

describe.each(variants)('live tool list changes over $label', (variant) => {
  let registry: ToolRegistry;
  let provider: McpToolHub;
  let fixture: HttpFixture | undefined;

  beforeAll(async () => {
    const started = await variant.start();
    fixture = started.fixture;
    registry = new ToolRegistry();
    provider = await loadMcpServers({ servers: { chg: started.config } }, registry);
  });

  afterAll(async () => {
    await provider?.close();
    await fixture?.close();
  });

  it('adds and removes registry tools as the server changes, firing toolsChanged', async () => {
    expect(provider.status('chg')?.era).toBe(variant.era);
    const changes: { added: string[]; removed: string[] }[] = [];
    provider.on('toolsChanged', (server, change) => {
      if (server === 'chg') changes.push(change);
    });
    const added = await registry.get('chg__add_tool')!.execute('1', { name: 'fresh_tool' });
    expect(textOf(added)).toBe('added fresh_tool');
    await waitUntil(() => registry.has('chg__fresh_tool'), "until registry.has('chg__fresh_tool')", 10_000);
    expect(changes.some((change) => change.added.includes('chg__fresh_tool'))).toBe(true);
    expect(provider.status('chg')?.toolCount).toBe(4);
    expect(provider.toolOrigin?.('chg__fresh_tool')).toEqual({ server: 'chg', originalName: 'fresh_tool' });
    const fresh = await registry.get('chg__fresh_tool')!.execute('2', { text: 'x' });
    expect(textOf(fresh)).toBe('fresh_tool: x');

    await registry.get('chg__remove_tool')!.execute('3', { name: 'fresh_tool' });
    await waitUntil(() => !registry.has('chg__fresh_tool'), "until !registry.has('chg__fresh_tool')", 10_000);
    expect(changes.some((change) => change.removed.includes('chg__fresh_tool'))).toBe(true);
    // The removed tool no longer routes; the others still do.
    expect(provider.toolOrigin?.('chg__fresh_tool')).toBeUndefined();
    expect(provider.toolOrigin?.('chg__add_tool')).toEqual({ server: 'chg', originalName: 'add_tool' });
  });
});

describe('list_changed from a server that never declared listChanged (Python SDK, fastmcp)', () => {
  it('is accepted anyway: tools, prompt and resource counts refresh', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { lax: stdioFixture('undeclared-changes', [], { protocol: '2025' }) } },
      registry,
    );
    try {
      expect(provider.status('lax')?.state).toBe('connected');
      expect(registry.has('lax__fresh')).toBe(false);
      await registry.get('lax__add_tool')!.execute('1', { name: 'fresh' });
      await waitUntil(() => registry.has('lax__fresh'), "until registry.has('lax__fresh')", 5000);
      await waitUntil(
        () => provider.status('lax')?.promptCount === 1 && provider.status('lax')?.resourceCount === 1,
        "until provider.status('lax')?.promptCount === 1 && provider.status('lax')?.resourceCount === 1",
        5000,
      );
    } finally {
      await provider.close();
    }
  });
});
