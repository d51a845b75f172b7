import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import {
  followAuthorizationUrl,
  type OAuthFixture,
  startOAuthFixture,
} from '../fixtures/oauth/oauth-fixture.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient } from './gateway-test-helpers.js';

/*
 * McpAuth: a server waiting for OAuth sign-in (`auth_required`) has
 * no tools, so the gateway serves `mcp_auth` in every mode (full, router, hybrid), scoped to
 * the servers the profile admits, and a client signs the server in through it.
 */

const canary = 'CANARYgw4';
let fixture: OAuthFixture;
let provider: McpToolHub;
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  fixture = await startOAuthFixture({ canary });
  const config = {
    servers: {
      remote: { type: 'streamable-http' as const, url: fixture.mcpUrl },
      echo: stdioFixture('echo'),
    },
  };
  const registry = new ToolRegistry();
  provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    tokenStore: new MemoryTokenStore(),
    reconnect: { enabled: false },
    connectTimeoutMs: 50_000,
  });
  gateway = createGateway({
    registry,
    provider,
    config,
    profiles: {
      routed: { mode: 'router' },
      pinned: { mode: 'hybrid', pin: ['echo__echo'] },
      local: { mode: 'router', servers: { deny: ['remote'] } },
      localfull: { servers: { deny: ['remote'] } },
    },
  });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port: 0 }));
  expect(provider.status('remote')?.state).toBe('auth_required');
});

afterAll(async () => {
  await gateway?.close();
  await provider?.close();
  await fixture?.close();
});

const parse = (result: unknown) =>
  JSON.parse((result as { content: { text?: string }[] }).content[0]?.text ?? '{}') as Record<
    string,
    unknown
  >;

const mcpAuth = (client: Client, args: Record<string, unknown> = {}) =>
  client.callTool({ name: 'mcp_auth', arguments: args });

describe('mcp_auth through the gateway', () => {
  it.each([
    ['full', ''],
    ['router', '/routed'],
    ['hybrid', '/pinned'],
  ])('is served in %s mode and lists the server waiting for sign-in', async (_mode, path) => {
    const client = await connectClient(`${url}${path}`, 'modern');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('mcp_auth');
      expect(parse(await mcpAuth(client)).servers).toEqual([
        { server: 'remote', state: 'auth_required', status: 'needs_authorization' },
      ]);
    } finally {
      await client.close();
    }
  });

  it.each(['/local', '/localfull'])(
    'is not served by a profile that denies the server (%s)',
    async (path) => {
      const client = await connectClient(`${url}${path}`, 'legacy');
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).not.toContain('mcp_auth');
      } finally {
        await client.close();
      }
    },
  );

  it('signs the server in from router mode; its tools are then reachable through call_tool', async () => {
    const client = await connectClient(`${url}/routed`, 'legacy');
    try {
      const started = parse(await mcpAuth(client, { server: 'remote' }));
      expect(started.status).toBe('pending');
      expect(String(started.url)).toContain(`${fixture.issuer}/authorize`);
      await followAuthorizationUrl(new URL(String(started.url)));
      await expect.poll(() => provider.status('remote')?.state, { timeout: 20_000 }).toBe('connected');
      expect(parse(await mcpAuth(client, { server: 'remote' }))).toMatchObject({
        server: 'remote',
        status: 'authorized',
      });
      const whoami = await client.callTool({ name: 'call_tool', arguments: { name: 'remote__whoami' } });
      expect(whoami.isError).toBeFalsy();
      expect(JSON.stringify(whoami)).not.toContain(canary);
    } finally {
      await client.close();
    }
  });
});
