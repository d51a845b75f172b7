import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import type { ElicitationRequest, SamplingRequest } from '../../src/mcp/server-requests.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { CallContext } from '../../src/tool/call-context.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { httpServer, stdioFixture, textOf } from './hub-test-helpers.js';

interface Variant {
  label: string;
  era: 'legacy' | 'modern';
  start: () => Promise<{ config: ServerConfig; fixture?: HttpFixture }>;
}

const variants: Variant[] = [
  {
    label: 'stdio, 2025 era (server→client requests)',
    era: 'legacy',
    start: async () => ({ config: stdioFixture('sampling', ['--era', 'legacy']) }),
  },
  {
    label: 'stdio, 2026-07-28 (input_required)',
    era: 'modern',
    start: async () => ({ config: stdioFixture('sampling', [], { protocol: '2026-07-28' }) }),
  },
  {
    // Each request comes on the call's own SSE stream before its response; the answer is a POST
    // of its own while that stream stays open.
    label: "Streamable HTTP, 2025 era (requests on the call's own stream)",
    era: 'legacy',
    start: async () => {
      const fixture = await startHttpFixture('sampling', ['--era', 'legacy']);
      return { config: httpServer(fixture.url), fixture };
    },
  },
  {
    label: 'Streamable HTTP, 2026-07-28 (input_required)',
    era: 'modern',
    start: async () => {
      const fixture = await startHttpFixture('sampling');
      return { config: httpServer(fixture.url, { protocol: '2026-07-28' }), fixture };
    },
  },
];

describe.each(variants)('server→client requests over $label', (variant) => {
  let fixture: HttpFixture | undefined;
  let config: ServerConfig;
  let withHandlers: { provider: McpToolHub; registry: ToolRegistry };
  let without: { provider: McpToolHub; registry: ToolRegistry };
  const seen: {
    sampling: { request: SamplingRequest; server: string; caller?: CallContext; inFlight: CallContext[] }[];
    elicitation: ElicitationRequest[];
  } = {
    sampling: [],
    elicitation: [],
  };

  beforeAll(async () => {
    const started = await variant.start();
    fixture = started.fixture;
    config = started.config;
    const registry = new ToolRegistry();
    const provider = await loadMcpServers({ servers: { s: config } }, registry, {
      workspaceDir: '/tmp/mcptools-workspace',
      roots: ['/tmp/other-root'],
      onSamplingRequest: async (request, context) => {
        seen.sampling.push({
          request,
          server: context.server,
          ...(context.caller === undefined ? {} : { caller: context.caller }),
          inFlight: context.callersInFlight,
        });
        expect(context.signal).toBeInstanceOf(AbortSignal);
        return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'forty-two' } };
      },
      onElicitation: async (request) => {
        seen.elicitation.push(request);
        return { action: 'accept', content: { city: 'Lisbon' } };
      },
    });
    withHandlers = { provider, registry };
    const bareRegistry = new ToolRegistry();
    without = {
      provider: await loadMcpServers({ servers: { s: config } }, bareRegistry),
      registry: bareRegistry,
    };
  });

  afterAll(async () => {
    await withHandlers?.provider.close();
    await without?.provider.close();
    await fixture?.close();
  });

  it('routes sampling to onSamplingRequest', async () => {
    expect(withHandlers.provider.status('s')?.era).toBe(variant.era);
    const result = await withHandlers.registry
      .get('s__ask_llm')!
      .execute('1', { prompt: 'meaning of life?' });
    expect(textOf(result)).toBe('forty-two');
    expect(seen.sampling.at(-1)?.server).toBe('s');
    expect(JSON.stringify(seen.sampling.at(-1)?.request.messages)).toContain('meaning of life?');
  });

  it('hands a request the call that caused it where the transport links the two, and the calls in flight always', async () => {
    const caller: CallContext = {
      toolCallId: 'linked',
      upstream: {
        logLevel: undefined,
        capabilities: { sampling: {} },
        sessionId: 'session-1',
        ask: () => Promise.reject(new Error('not asked in this test')),
        log: () => {},
      },
    };
    const result = await withHandlers.registry
      .get('s__ask_llm')!
      .execute('6', { prompt: 'who asks?' }, undefined, undefined, caller);
    expect(textOf(result)).toBe('forty-two');
    const seenNow = seen.sampling.at(-1)!;
    expect(JSON.stringify(seenNow.request.messages)).toContain('who asks?');
    expect(seenNow.inFlight).toEqual([caller]);
    // A 2026-07-28 round runs in the context of the request that caused it (over stdio, its
    // response re-linked to the caller); a 2025-era stdio server's requests come from its pipe,
    // which no call's context reaches. (Over 2025-era HTTP it depends on the stream the server
    // picks; the gateway's tests cover the call's own stream.)
    if (variant.era === 'modern') expect(seenNow.caller).toBe(caller);
    else if (variant.label.startsWith('stdio')) expect(seenNow.caller).toBeUndefined();
  });

  it('routes elicitation to onElicitation', async () => {
    const result = await withHandlers.registry.get('s__ask_user')!.execute('2', {});
    expect(textOf(result)).toBe('city: Lisbon');
    expect(seen.elicitation.at(-1)?.message).toBe('Which city?');
  });

  it('answers roots from workspaceDir and roots as file:// URLs', async () => {
    const result = await withHandlers.registry.get('s__list_roots')!.execute('3', {});
    expect(textOf(result).split('\n')).toEqual(['file:///tmp/mcptools-workspace', 'file:///tmp/other-root']);
  });

  it('without handlers, the tool fails with an isError result instead of hanging or throwing', async () => {
    const sampling = await without.registry.get('s__ask_llm')!.execute('4', { prompt: 'x' });
    expect(sampling.isError).toBe(true);
    expect(textOf(sampling)).toContain('sampling is not enabled in mcptools; pass onSamplingRequest');
    const elicitation = await without.registry.get('s__ask_user')!.execute('5', {});
    expect(elicitation.isError).toBe(true);
  });
});
