import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { cityClient, eras, expectAllConnected } from './gateway-test-helpers.js';

/*
 * A gateway made with the library as the docs show it — `loadMcpServers(config, registry)`,
 * then `createGateway` — with no `gatewayServerRequests()`: the upstreams' sampling,
 * elicitation and roots requests still reach the downstream client whose call caused them,
 * in both upstream eras. The control: a hub loaded with `gatewayServerRequests()` (the earlier
 * way) still routes. Once the gateway is gone, the hub refuses them, and says so.
 */

const servers = ['ask25', 'ask25http', 'ask'] as const;

let samplingHttp: HttpFixture;
let samplingModern: HttpFixture;
let config: McpToolsConfig;
let registry: ToolRegistry;
let hub: McpToolHub;
let gateway: Gateway;
let url: string;
const warnings: string[] = [];
const logLines: string[] = [];

beforeAll(async () => {
  [samplingHttp, samplingModern] = await Promise.all([
    startHttpFixture('sampling', ['--era', 'legacy']),
    startHttpFixture('sampling', ['--era', 'modern']),
  ]);
  config = {
    servers: {
      ask25: stdioFixture('sampling', ['--era', 'legacy']),
      ask25http: httpServer(samplingHttp.url),
      ask: httpServer(samplingModern.url),
    },
  };
  registry = new ToolRegistry();
  // Nothing about server requests: the hub declares them routed, the gateway routes them.
  hub = await loadMcpServers(config, registry, { connectTimeoutMs: 50_000 });
  hub.on('warning', (message) => warnings.push(message));
  gateway = createGateway({ registry, hub, config, log: (line) => logLines.push(line) });
  ({ url } = await gateway.listen({ host: '127.0.0.1' }));
  expectAllConnected(hub);
  expect(hub.status('ask25')?.protocolEra).toBe('2025');
  expect(hub.status('ask')?.protocolEra).toBe('2026-07-28');
});

afterAll(async () => {
  await gateway?.close();
  await hub?.close();
  await Promise.all([samplingHttp?.close(), samplingModern?.close()]);
});

describe.each(eras)('a library-made gateway, for a $label', ({ era }) => {
  let lisbon: Client;
  let oslo: Client;

  beforeAll(async () => {
    lisbon = await cityClient(url, era, 'Lisbon');
    oslo = await cityClient(url, era, 'Oslo');
  });

  afterAll(async () => {
    await lisbon?.close();
    await oslo?.close();
  });

  it.each(servers)(
    'hands %s’s sampling, elicitation and roots requests to the client whose call caused them',
    async (server) => {
      for (const [client, city] of [
        [lisbon, 'Lisbon'],
        [oslo, 'Oslo'],
      ] as const) {
        const sampled = await client.callTool({ name: `${server}__ask_llm`, arguments: { prompt: 'hi' } });
        expect(sampled.isError, textOf(sampled as never)).toBeFalsy();
        expect(textOf(sampled as never)).toBe(`sampled by ${city}`);
        const elicited = await client.callTool({ name: `${server}__ask_user`, arguments: {} });
        expect(textOf(elicited as never)).toBe(`city: ${city}`);
        const roots = await client.callTool({ name: `${server}__list_roots`, arguments: {} });
        expect(textOf(roots as never)).toBe(`file:///${city}`);
      }
    },
  );
});

describe('the routing createGateway installs', () => {
  it('is not reported missing: the hub takes it', () => {
    expect(logLines.filter((line) => line.includes('server-request routing'))).toEqual([]);
  });

  it('leaves with the gateway: the hub then refuses such a request with an error naming what is missing, and a warning', async () => {
    const other = createGateway({ registry, hub, config });
    await other.close();
    // The first gateway still routes after another over the same hub closed.
    const client = await cityClient(url, 'legacy', 'Porto');
    try {
      const still = await client.callTool({ name: 'ask25__ask_user', arguments: {} });
      expect(textOf(still as never)).toBe('city: Porto');
    } finally {
      await client.close();
    }
    await gateway.close();
    const refused = await registry.get('ask25__ask_llm')!.execute('1', { prompt: 'x' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('sampling is not enabled in mcptools');
    expect(textOf(refused)).toContain('createGateway');
    expect(warnings).toContainEqual(
      expect.stringContaining('server "ask25" asked for sampling/createMessage, refused'),
    );
  });
});

describe('the control: a hub loaded with gatewayServerRequests() (deprecated)', () => {
  it('still hands the requests to the calling client', async () => {
    const ownRegistry = new ToolRegistry();
    const own = await loadMcpServers(
      { servers: { ask25: stdioFixture('sampling', ['--era', 'legacy']) } },
      ownRegistry,
      { ...gatewayServerRequests(), connectTimeoutMs: 50_000 },
    );
    const served = createGateway({ registry: ownRegistry, hub: own });
    try {
      const listening = await served.listen({ host: '127.0.0.1' });
      const client = await cityClient(listening.url, 'modern', 'Bergen');
      try {
        const elicited = await client.callTool({ name: 'ask25__ask_user', arguments: {} });
        expect(textOf(elicited as never)).toBe('city: Bergen');
      } finally {
        await client.close();
      }
    } finally {
      await served.close();
      await own.close();
    }
  });
});

describe('what a hub declares to a server that asks only what its client declared', () => {
  const conformance = () => ({
    servers: { drafts: stdioFixture('conformance', ['--no-resources', '--era', 'legacy']) },
  });

  it('routed (the default): sampling and elicitation are declared, and asked', async () => {
    const ownRegistry = new ToolRegistry();
    const own = await loadMcpServers(conformance(), ownRegistry, { connectTimeoutMs: 50_000 });
    try {
      expectAllConnected(own);
      const result = await ownRegistry.get('drafts__input_required_result_capabilities')!.execute('1', {});
      // No gateway and no handler: asked, and refused with the reason.
      expect(textOf(result)).toContain('is not enabled in mcptools');
    } finally {
      await own.close();
    }
  });

  it('configured: nothing without a handler is declared, so nothing is asked', async () => {
    const ownRegistry = new ToolRegistry();
    const own = await loadMcpServers(conformance(), ownRegistry, {
      connectTimeoutMs: 50_000,
      serverRequests: 'configured',
    });
    try {
      expectAllConnected(own);
      const result = await ownRegistry.get('drafts__input_required_result_capabilities')!.execute('1', {});
      expect(textOf(result)).toBe('nothing to ask this client');
      // A gateway over it cannot route, and says so rather than refusing in silence.
      const lines: string[] = [];
      await createGateway({ registry: ownRegistry, hub: own, log: (line) => lines.push(line) }).close();
      expect(lines.filter((line) => line.includes('takes no server-request routing'))).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});
