import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerConfig } from '../../src/config/config-types.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { ToolUpdate } from '../../src/tool/tool.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { eventually, httpServer, stdioFixture, textOf } from './hub-test-helpers.js';

interface Variant {
  label: string;
  era: 'legacy' | 'modern';
  transport: 'stdio' | 'streamable-http';
  server: () => Promise<{ config: ServerConfig; close: () => Promise<void> }>;
}

function httpVariant(era: 'legacy' | 'modern'): Variant['server'] {
  return async () => {
    const fixture: HttpFixture = await startHttpFixture('echo', ['--era', era]);
    return { config: httpServer(fixture.url), close: () => fixture.close() };
  };
}

const variants: Variant[] = [
  {
    label: 'stdio, 2026-07-28',
    era: 'modern',
    transport: 'stdio',
    server: async () => ({ config: stdioFixture('echo', ['--era', 'modern']), close: async () => {} }),
  },
  {
    label: 'stdio, 2025 era',
    era: 'legacy',
    transport: 'stdio',
    server: async () => ({ config: stdioFixture('echo', ['--era', 'legacy']), close: async () => {} }),
  },
  {
    label: 'Streamable HTTP, 2026-07-28',
    era: 'modern',
    transport: 'streamable-http',
    server: httpVariant('modern'),
  },
  {
    label: 'Streamable HTTP, 2025 era',
    era: 'legacy',
    transport: 'streamable-http',
    server: httpVariant('legacy'),
  },
];

describe.each(variants)('MCP hub contract over $label', (variant) => {
  let registry: ToolRegistry;
  let provider: McpToolHub;
  let closeServer: () => Promise<void>;

  beforeAll(async () => {
    const server = await variant.server();
    closeServer = server.close;
    registry = new ToolRegistry();
    provider = await loadMcpServers({ servers: { echo: server.config } }, registry, {
      connectTimeoutMs: 15_000,
    });
  });

  afterAll(async () => {
    await provider?.close();
    await closeServer?.();
  });

  const tool = (name: string) => {
    const found = registry.get(`echo__${name}`);
    if (!found) throw new Error(`echo__${name} is not registered`);
    return found;
  };

  it('connects and reports transport, era, protocol version, server info and counts', () => {
    const status = provider.status('echo');
    expect(status).toMatchObject({
      state: 'connected',
      transport: variant.transport,
      era: variant.era,
      serverInfo: { name: 'echo-fixture', version: '1.0.0' },
      toolCount: 7,
      resourceCount: 3,
      promptCount: 1,
      reconnectAttempts: 0,
    });
    expect(status?.protocolVersion).toBe(variant.era === 'modern' ? '2026-07-28' : '2025-11-25');
    expect(status?.lastError).toBeUndefined();
  });

  it('registers every tool as <server>__<tool> with MCP metadata and an object schema', () => {
    expect(registry.names({ owner: 'mcp:echo' }).sort()).toEqual(
      ['add', 'boom', 'cancelled_count', 'echo', 'fail', 'mixed', 'slow'].map((name) => `echo__${name}`),
    );
    const add = tool('add');
    expect(add).toMatchObject({
      label: 'add',
      source: 'mcp',
      server: 'echo',
      originalName: 'add',
      category: 'echo',
    });
    expect(add.parameters.type).toBe('object');
    expect(add.parameters.required).toEqual(['a', 'b']);
    expect(add.outputSchema).toMatchObject({ type: 'object' });
    expect(tool('boom').parameters.type).toBe('object');
    // Keys a definition does not have are absent, not present as undefined.
    expect(Object.keys(tool('boom'))).not.toContain('annotations');
    expect(Object.keys(tool('boom'))).not.toContain('outputSchema');
    expect(Object.keys(add)).toContain('outputSchema');
    expect(provider.toolOrigin?.('echo__add')).toEqual({ server: 'echo', originalName: 'add' });
    // A tool that only claims the server, registered by someone else, does not route there.
    const unregister = registry.register({
      ...add,
      name: 'not_from_echo',
      server: 'echo',
      originalName: 'add',
    });
    expect(provider.toolOrigin?.('not_from_echo')).toBeUndefined();
    unregister();
    expect(provider.toolOrigin?.('echo__nope')).toBeUndefined();
  });

  it('executes a tool and returns its text', async () => {
    const result = await tool('echo').execute('call-1', { text: 'héllo' });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('héllo');
  });

  it('keeps structuredContent and every content type (lossless)', async () => {
    const sum = await tool('add').execute('call-2', { a: 2, b: 3 });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const mixed = await tool('mixed').execute('call-3', {});
    expect(mixed.content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource_link',
    ]);
  });

  it('passes an upstream isError result through as an error result', async () => {
    const result = await tool('fail').execute('call-4', { message: 'nope' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('nope');
    const boom = await tool('boom').execute('call-5', {});
    expect(boom.isError).toBe(true);
    expect(textOf(boom)).toContain('boom');
  });

  it('validates arguments before sending and never sends invalid ones', async () => {
    const spy = vi.spyOn(Client.prototype, 'callTool');
    try {
      const result = await tool('add').execute('call-6', { a: 1, b: 'two' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Tool echo/add failed: invalid arguments: /b must be number');
      expect(result.details).toMatchObject({ code: 'INVALID_ARGUMENTS' });
      const missing = await tool('echo').execute('call-7', {});
      expect(textOf(missing)).toContain("must have required property 'text'");
      expect(spy).not.toHaveBeenCalled();
      await tool('add').execute('call-8', { a: 1, b: 2 });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('validates against the listed schema, not a caller’s edit of parameters (a copy)', async () => {
    const slow = tool('slow');
    const listed = slow.parameters.required;
    slow.parameters.required = ['not_an_argument'];
    try {
      const result = await slow.execute('call-edit', { ms: 1, steps: 1 });
      expect(result.isError).toBeUndefined();
      const invalid = await slow.execute('call-edit-2', { steps: 1 });
      expect(textOf(invalid)).toContain("must have required property 'ms'");
    } finally {
      slow.parameters.required = listed;
    }
  });

  it('feeds progress notifications to onUpdate', async () => {
    const updates: ToolUpdate[] = [];
    const result = await tool('slow').execute('call-9', { ms: 300, steps: 3 }, undefined, (update) =>
      updates.push(update),
    );
    expect(textOf(result)).toContain('slept');
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates[0]).toMatchObject({
      content: [{ type: 'text', text: 'step 1' }],
      progress: { progress: 1, total: 3 },
    });
  });

  it('aborting a call returns ABORTED at once and cancels it upstream', async () => {
    const before = (await tool('cancelled_count').execute('count-1', {})).structuredContent as {
      cancelled: number;
    };
    const controller = new AbortController();
    const running = tool('slow').execute('call-10', { ms: 5000, steps: 50 }, controller.signal, () =>
      controller.abort(),
    );
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: 'ABORTED' });
    expect(textOf(result)).toMatch(/^Tool echo\/slow failed: /);
    const cancelled = await eventually(async () => {
      const now = (await tool('cancelled_count').execute('count-2', {})).structuredContent as {
        cancelled: number;
      };
      return now.cancelled > before.cancelled;
    }, 8000);
    expect(cancelled).toBe(true);
  });

  it('lists and reads resources and templates', async () => {
    const resources = await provider.resources.list('echo');
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'echo://static/blob',
      'echo://static/hello',
      'echo://static/unicode',
    ]);
    expect(resources[0]?.server).toBe('echo');
    const [hello] = await provider.resources.read('echo', 'echo://static/hello');
    expect(hello).toMatchObject({ uri: 'echo://static/hello', text: 'hello', mimeType: 'text/plain' });
    const [blob] = await provider.resources.read('echo', 'echo://static/blob');
    expect(Buffer.from(blob?.blob ?? '', 'base64').length).toBe(1024);
    const templates = await provider.resources.listTemplates('echo');
    expect(templates.map((template) => template.uriTemplate)).toContain('echo://items/{id}');
    const [item] = await provider.resources.read('echo', 'echo://items/42');
    expect(item?.text).toBe('item 42');
  });

  it('throws typed errors for unknown and malformed resource URIs', async () => {
    const missing = await provider.resources
      .read('echo', 'echo://static/none')
      .catch((error: unknown) => error);
    expect(McpToolsError.isInstance(missing) && missing.code).toBe('RESOURCE_NOT_FOUND');
    const malformed = await provider.resources.read('echo', 'not a uri').catch((error: unknown) => error);
    expect(McpToolsError.isInstance(malformed) && malformed.code).toBe('INVALID_URI');
  });

  it('lists and gets prompts', async () => {
    const prompts = await provider.prompts.list('echo');
    expect(prompts.map((prompt) => prompt.name)).toEqual(['greet']);
    const greeting = await provider.prompts.get('echo', 'greet', { name: 'Ada' });
    expect(JSON.stringify(greeting.messages)).toContain('Hello, Ada!');
  });

  it('refresh re-lists tools and fires toolsChanged', async () => {
    const changes: string[] = [];
    const off = provider.on('toolsChanged', (server) => changes.push(server));
    await provider.refresh('echo');
    off();
    expect(changes).toEqual(['echo']);
    expect(provider.status('echo')?.toolCount).toBe(7);
  });
});
