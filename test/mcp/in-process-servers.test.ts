import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createEchoServer } from '../fixtures/servers/echo-server.js';
import { stdioFixture, textOf } from './hub-test-helpers.js';

// A server handed to the hub as code (`inProcessServers`) goes the way of every other server:
// connected, listed, registered, called and reconnected by the hub, over an in-memory transport.

let hub: McpToolHub | undefined;

afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

/** A server whose one tool asks the client to sample (a 2025-era server→client request). */
function samplingServer(): McpServer {
  const server = new McpServer({ name: 'asking', version: '1.0.0' });
  server.registerTool(
    'ask',
    { description: 'Ask the client LLM', inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx: ServerContext) => {
      const answer = await ctx.mcpReq.requestSampling({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 10,
      });
      const content = answer.content as { text?: string };
      return { content: [{ type: 'text', text: `sampled: ${content.text}` }] };
    },
  );
  return server;
}

describe('in-process servers (inProcessServers)', () => {
  it('are connected, listed and called through the hub like a configured server', async () => {
    const registry = new ToolRegistry();
    hub = await loadMcpServers({ servers: {} }, registry, {
      inProcessServers: { echo: { server: createEchoServer } },
    });
    expect(hub.status('echo')).toMatchObject({ state: 'connected', transport: 'in-memory' });
    expect(hub.status('echo')?.pid).toBeUndefined();
    expect(registry.names({ owner: 'mcp:echo' })).toEqual(
      expect.arrayContaining(['echo__echo', 'echo__add', 'echo__slow']),
    );
    const echoed = await registry.get('echo__echo')!.execute('call-1', { text: 'hello' });
    expect(textOf(echoed)).toBe('hello');
    const added = await registry.get('echo__add')!.execute('call-2', { a: 2, b: 3 });
    expect(added.structuredContent).toEqual({ sum: 5 });
    // Resources and prompts go through the same services as a configured server's.
    const read = await hub.resources.read('echo', 'echo://static/hello');
    expect(read[0]?.text).toBe('hello');
    const prompt = await hub.prompts.get('echo', 'greet', { name: 'Ada' });
    expect(JSON.stringify(prompt.messages)).toContain('Hello, Ada!');
  });

  it('speak the era their protocol asks for, one factory serving both', async () => {
    const registry = new ToolRegistry();
    hub = await loadMcpServers({ servers: {} }, registry, {
      inProcessServers: {
        old: { server: createEchoServer, protocol: '2025' },
        new: { server: createEchoServer, protocol: '2026-07-28' },
      },
    });
    expect(hub.status('old')).toMatchObject({ state: 'connected', protocolEra: '2025' });
    expect(hub.status('new')).toMatchObject({ state: 'connected', protocolEra: '2026-07-28' });
    for (const name of ['old__echo', 'new__echo'])
      expect(textOf(await registry.get(name)!.execute(name, { text: name }))).toBe(name);
  });

  it('take the settings of a server entry: tool filter and prefix', async () => {
    const registry = new ToolRegistry();
    hub = await loadMcpServers({ servers: {} }, registry, {
      inProcessServers: {
        echo: { server: createEchoServer, prefix: 'e', tools: { allow: ['echo', 'add'] } },
      },
    });
    expect(registry.names({ owner: 'mcp:echo' }).sort()).toEqual(['e__add', 'e__echo']);
  });

  it('serve beside configured servers, and a name the configuration has too is refused', async () => {
    const registry = new ToolRegistry();
    const config = { servers: { echo: stdioFixture('echo') } };
    await expect(
      loadMcpServers(config, registry, { inProcessServers: { echo: { server: createEchoServer } } }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringContaining('inProcessServers.echo'),
    });
    // Nothing was started nor registered by the refused hub; the same servers under two names are served.
    expect(registry.list()).toEqual([]);
    hub = await loadMcpServers(config, registry, {
      inProcessServers: { inner: { server: createEchoServer } },
    });
    expect(hub.status().map((status) => [status.name, status.state, status.transport])).toEqual([
      ['echo', 'connected', 'stdio'],
      ['inner', 'connected', 'in-memory'],
    ]);
  });

  it('reconnect with a fresh instance when the server closes', async () => {
    const registry = new ToolRegistry();
    const instances: McpServer[] = [];
    hub = await loadMcpServers({ servers: {} }, registry, {
      reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
      inProcessServers: {
        echo: {
          server: () => {
            const server = createEchoServer();
            instances.push(server);
            return server;
          },
          protocol: '2025',
        },
      },
    });
    expect(instances).toHaveLength(1);
    await instances[0]!.close();
    await expect
      .poll(() => instances.length, { message: 'until the hub connected a second instance' })
      .toBe(2);
    await expect
      .poll(() => hub!.status('echo')?.state, { message: 'until the server is connected again' })
      .toBe('connected');
    expect(hub.status('echo')?.reconnectAttempts).toBe(0);
    expect(textOf(await registry.get('echo__echo')!.execute('again', { text: 'back' }))).toBe('back');
  });

  it('carry server→client requests to the hub’s handlers, and refuse them without one', async () => {
    const registry = new ToolRegistry();
    const asked: string[] = [];
    hub = await loadMcpServers({ servers: {} }, registry, {
      onSamplingRequest: async (request) => {
        asked.push(JSON.stringify(request.messages));
        return { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'test' };
      },
      inProcessServers: { asking: { server: samplingServer, protocol: '2025' } },
    });
    const result = await registry.get('asking__ask')!.execute('ask', { prompt: 'the answer?' });
    expect(textOf(result)).toBe('sampled: forty-two');
    expect(asked).toEqual([expect.stringContaining('the answer?')]);
    // Control: a hub without a sampling handler declares none, and the server's request fails.
    await hub.close();
    const plain = new ToolRegistry();
    hub = await loadMcpServers({ servers: {} }, plain, {
      inProcessServers: { asking: { server: samplingServer, protocol: '2025' } },
    });
    const refused = await plain.get('asking__ask')!.execute('ask', { prompt: 'the answer?' });
    expect(refused.isError).toBe(true);
  });
});
