import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { GatewayOAuthConfig } from '../../src/config/gateway-auth-types.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { Tool } from '../../src/tool/tool.js';
import { followWithCookies, type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { initializeRequest } from '../helpers/initialize-request.js';

/*
 * RFC 9728 resource identifiers: the metadata of `/mcp/<profile>` names that profile's resource,
 * an audience written without a path is advertised exactly as written, and a token a real
 * OpenID provider (oidc-provider on loopback) issued for each advertised resource is let in
 * where that resource is served — a profile's token at its profile only.
 */

const clients = { 'app-a': 'app-a-secret-0123456789' };

const hello: Tool = {
  name: 'hello',
  description: 'Says hello',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ content: [{ type: 'text', text: 'hello' }] }),
};

let oidc: OidcFixture;
let provider: McpToolHub;
const running: Gateway[] = [];
let audience: string;
let profileResource: string;
let withPath: string;
let bareAudience: string;
let bare: string;

async function startGateway(port: number, auth: GatewayOAuthConfig): Promise<string> {
  const registry = new ToolRegistry();
  registry.register(hello);
  const gateway = createGateway({
    registry,
    provider,
    config: {
      servers: {},
      // Advertised scopes: the SDK client asks for them (the provider grants nothing without one).
      gateway: { auth: { scopesSupported: ['mcp'], ...auth }, profiles: { ops: { mode: 'full' } } },
    },
  });
  running.push(gateway);
  return (await gateway.listen({ host: '127.0.0.1', port })).url;
}

beforeAll(async () => {
  const [port, barePort] = [await freePort(), await freePort()];
  audience = `http://127.0.0.1:${port}/mcp`;
  profileResource = `${audience}/ops`;
  bareAudience = `http://127.0.0.1:${barePort}`;
  oidc = await startOidcProvider({
    jwtResources: [audience, profileResource, bareAudience],
    users: { alice: { groups: [] } },
    clients,
  });
  provider = await loadMcpServers({ servers: {} }, new ToolRegistry());
  withPath = await startGateway(port, { type: 'oauth', issuer: oidc.issuer, audience });
  bare = await startGateway(barePort, { type: 'oauth', issuer: oidc.issuer, audience: bareAudience });
}, 60_000);

afterAll(async () => {
  for (const gateway of running) await gateway.close();
  await provider?.close();
  await oidc?.close();
});

const initialize = JSON.stringify(initializeRequest());

async function post(url: string, token?: string): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: initialize,
  });
  await response.text();
  return response;
}

async function metadata(url: string): Promise<{ resource?: string }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as { resource?: string };
}

describe('RFC 9728 metadata of the profiles', () => {
  it('names the profile’s own resource at /mcp/<profile>, and the audience at /mcp', async () => {
    const origin = new URL(audience).origin;
    expect((await metadata(`${origin}/.well-known/oauth-protected-resource/mcp/ops`)).resource).toBe(
      profileResource,
    );
    expect((await metadata(`${origin}/.well-known/oauth-protected-resource/mcp`)).resource).toBe(audience);
    // The challenge at a profile points at that profile's document.
    const challenge = (await post(`${origin}/mcp/ops`)).headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp/ops"`);
  });

  it('lets in a token issued for a profile’s resource at that profile only', async () => {
    const origin = new URL(audience).origin;
    const forProfile = await oidc.userToken('alice', 'app-a', profileResource);
    expect((await post(`${origin}/mcp/ops`, forProfile)).status).toBe(200);
    expect((await post(withPath, forProfile)).status).toBe(401);
    // The control: a token for the gateway's own resource is good at every endpoint.
    const forGateway = await oidc.userToken('alice', 'app-a', audience);
    expect((await post(withPath, forGateway)).status).toBe(200);
    expect((await post(`${origin}/mcp/ops`, forGateway)).status).toBe(200);
  });

  it('signs the SDK client in for the profile’s resource from the profile’s URL alone', async () => {
    const registry = new ToolRegistry();
    const resources: (string | null)[] = [];
    const client = await loadMcpServers(
      { servers: { ops: { type: 'streamable-http', url: `${new URL(audience).origin}/mcp/ops` } } },
      registry,
      {
        connectTimeoutMs: 20_000,
        reconnect: { enabled: false },
        tokenStore: new MemoryTokenStore(),
        onAuthorizationUrl: async (url) => {
          resources.push(url.searchParams.get('resource'));
          url.searchParams.set('login_hint', 'alice');
          const callback = await followWithCookies(url, oidc.issuer);
          await (await fetch(callback)).text();
        },
      },
    );
    try {
      expect([client.status('ops')?.state, client.status('ops')?.lastError?.message]).toEqual([
        'connected',
        undefined,
      ]);
      expect(resources).toEqual([profileResource]);
      expect((await registry.resolveAll()).map((tool) => tool.name)).toContain('ops__hello');
    } finally {
      await client.close();
    }
  });
});

describe('an audience written without a path', () => {
  it('is advertised as written, with no "/" added, and a token issued for it is let in', async () => {
    const document = await metadata(`${bareAudience}/.well-known/oauth-protected-resource`);
    expect(document.resource).toBe(bareAudience);
    const token = await oidc.userToken('alice', 'app-a', document.resource!);
    expect((await post(bare, token)).status).toBe(200);
    // The control: a token for another resource is still refused.
    expect((await post(bare, await oidc.userToken('alice', 'app-a', audience))).status).toBe(401);
  });
});
