import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ServableResponseStore } from '../../src/mcp/servable-response-store.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { httpServer, stdioFixture, textOf } from './hub-test-helpers.js';

const toolList = '{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}';
const headerList =
  '{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R"}}}}]}';
const key = (method: string, params = '') => ({ method, params, partition: '["s@1",""]' });

describe('ServableResponseStore', () => {
  it('keeps what the client can read back and nothing else', () => {
    const store = new ServableResponseStore();
    const now = Date.now();
    // Written the way the SDK writes a result without a ttlMs: expiring as it is written.
    store.set(key('tools/list'), { value: toolList, expiresAt: now, scope: 'private' });
    store.set(key('resources/list'), { value: '{"resources":[]}', expiresAt: now, scope: 'private' });
    expect(store.size).toBe(0);
    expect(store.get(key('tools/list'))).toBeUndefined();

    // A tool list is never read back for itself (mcptools always lists afresh), whatever its ttlMs.
    store.set(key('tools/list'), { value: toolList, expiresAt: now + 60_000, scope: 'private' });
    expect(store.size).toBe(0);

    store.set(key('resources/read', 'a://b'), { value: '{"contents":[]}', expiresAt: now + 60_000 });
    expect(store.get(key('resources/read', 'a://b'))).toMatchObject({ value: '{"contents":[]}' });
    // A tool list that declares a header is read by `callTool` whatever its age.
    store.set(key('tools/list'), { value: headerList, expiresAt: now, scope: 'private' });
    expect(store.get(key('tools/list'))).toMatchObject({ value: headerList });
    expect(store.size).toBe(2);
  });

  it('forgets what it held under a key when a result it does not keep replaces it', () => {
    const store = new ServableResponseStore();
    store.set(key('tools/list'), { value: headerList, expiresAt: Date.now() });
    store.set(key('tools/list'), { value: toolList, expiresAt: Date.now() });
    expect(store.get(key('tools/list'))).toBeUndefined();
    expect(store.size).toBe(0);
  });
});

describe('a hub’s clients keep no tool lists, and lose nothing by it', () => {
  const registry = new ToolRegistry();
  let provider: McpToolHub;
  let cached: HttpFixture;
  let uncached: HttpFixture;

  beforeAll(async () => {
    [cached, uncached] = await Promise.all([
      startHttpFixture('cache-hints', ['--era', 'modern', '--ttl', '60000']),
      startHttpFixture('cache-hints', ['--era', 'modern']),
    ]);
    provider = await loadMcpServers(
      {
        servers: {
          cached: httpServer(cached.url, { protocol: '2026-07-28' }),
          uncached: httpServer(uncached.url, { protocol: '2026-07-28' }),
          legacy: stdioFixture('cache-hints'),
        },
      },
      registry,
    );
  });

  afterAll(async () => {
    await provider?.close();
    await Promise.all([cached?.close(), uncached?.close()]);
  });

  const call = (name: string, args: Record<string, unknown>) => registry.get(name)!.execute(name, args);

  it('mirrors a declared header over 2026-07-28 (the server refuses a call without it)', async () => {
    expect(provider.status('cached')).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28' });
    const result = await call('cached__regional', { region: 'eu-west' });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('region eu-west');
  });

  // That a result is checked against the listed output schema, with no list held, is what
  // shared-output-validator.test.ts shows (its server sends results that break their schema).
  it('calls a tool with an output schema in either era', async () => {
    for (const server of ['uncached', 'legacy']) {
      const result = await call(`${server}__halve`, { n: 4 });
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual({ half: 2 });
    }
  });

  it('serves a resource again from the cache while the server’s ttlMs lasts, and only then', async () => {
    const read = async (server: string) => {
      const [contents] = await provider.resources.read(server, 'cache://counted');
      return (contents as { text: string }).text;
    };
    expect(await read('cached')).toBe('read 1');
    expect(await read('cached')).toBe('read 1');
    expect(await read('uncached')).toBe('read 1');
    expect(await read('uncached')).toBe('read 2');
  });
});
