import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { startAudienceServer } from '../fixtures/oidc/audience-server.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { connectClient, eras, toolNames } from './gateway-test-helpers.js';

/*
 * Token exchange with two tokens of one user: Alice holds a wide token (one client) and a
 * narrow one (`scope=mcp`, another client). Each call goes upstream with the token exchanged for
 * the token it came with, never the other: the real OpenID provider issues exchanged tokens with
 * the subject token's scopes, and the upstream (`scopes`) says which it got. Two tokens with the
 * same scopes from two clients are told apart too: the exchanged token names the client of the
 * token it was exchanged for (`subject`).
 */

let oidc: OidcFixture;
let audienceServer: Awaited<ReturnType<typeof startAudienceServer>>;
let gateway: Gateway;
let provider: McpToolHub;
let url: string;
let wide: string;
let narrow: string;
let audience: string;

beforeAll(async () => {
  const [port, audiencePort] = [await freePort(), await freePort()];
  audience = `http://127.0.0.1:${port}/mcp`;
  const upstreamAudience = `http://127.0.0.1:${audiencePort}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [audience, upstreamAudience],
    users: { alice: { groups: ['ops'] } },
    clients: {
      'app-a': 'app-a-secret-0123456789',
      'app-b': 'app-b-secret-0123456789',
      gateway: 'gateway-secret-0123456789',
    },
  });
  audienceServer = await startAudienceServer(oidc.issuer, audiencePort);
  const config = {
    servers: {
      aud: {
        type: 'streamable-http' as const,
        url: audienceServer.url,
        auth: {
          type: 'tokenExchange' as const,
          issuer: oidc.issuer,
          clientId: 'gateway',
          clientSecret: 'gateway-secret-0123456789',
          audience: upstreamAudience,
        },
      },
    },
    gateway: { auth: { type: 'oauth' as const, issuer: oidc.issuer, audience } },
  };
  const registry = new ToolRegistry();
  provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    connectTimeoutMs: 30_000,
    eraCache: false,
  });
  gateway = createGateway({ registry, provider, config });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port }));
  wide = await oidc.userToken('alice', 'app-a', audience, 'openid mcp tools:read tools:ops');
  narrow = await oidc.userToken('alice', 'app-b', audience, 'openid mcp');
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await provider?.close();
  await Promise.all([oidc?.close(), audienceServer?.close()]);
});

async function text(client: Client, name: string): Promise<string> {
  const result = (await client.callTool({ name, arguments: {} })) as {
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  return `${result.isError ? 'error: ' : ''}${(result.content ?? []).map((block) => block.text ?? '').join('')}`;
}

describe.each(eras)('token exchange with two tokens of one user ($label)', ({ era }) => {
  it('sends each call with the token exchanged for the token it came with', async () => {
    const withWide = await connectClient(url, era, { headers: { authorization: `Bearer ${wide}` } });
    const withNarrow = await connectClient(url, era, { headers: { authorization: `Bearer ${narrow}` } });
    try {
      await expect
        .poll(async () => toolNames(withWide), { message: 'the catalog of aud', timeout: 20_000 })
        .toContain('aud__scopes');
      // The control: the wide token's call carries the wide scopes.
      expect(await text(withWide, 'aud__scopes')).toBe('scope mcp tools:read tools:ops');
      // The narrow token, same user, right after: exchanged from itself, so narrow upstream.
      expect(await text(withNarrow, 'aud__scopes')).toBe('scope mcp');
      // Each exchanged token is kept for its own subject token: no exchange for a repeated call.
      const exchanged = oidc.counts.tokenExchange;
      expect(await text(withWide, 'aud__scopes')).toBe('scope mcp tools:read tools:ops');
      expect(await text(withNarrow, 'aud__scopes')).toBe('scope mcp');
      expect(oidc.counts.tokenExchange).toBe(exchanged);
      // Both are Alice's.
      expect(await text(withNarrow, 'aud__whoami')).toBe(`sub alice aud ${audienceServer.url}`);
    } finally {
      await Promise.all([withWide.close(), withNarrow.close()]);
    }
  }, 60_000);

  it('sends a call with the token exchanged for its own token when another client of the user has the same scopes', async () => {
    // Fresh tokens for each era: a token seen before has its exchanged token kept already.
    const sameScopesA = await oidc.userToken('alice', 'app-a', audience, 'openid mcp tools:read');
    const sameScopesB = await oidc.userToken('alice', 'app-b', audience, 'openid mcp tools:read');
    const withA = await connectClient(url, era, { headers: { authorization: `Bearer ${sameScopesA}` } });
    const withB = await connectClient(url, era, { headers: { authorization: `Bearer ${sameScopesB}` } });
    const withWide = await connectClient(url, era, { headers: { authorization: `Bearer ${wide}` } });
    let gate: ReturnType<OidcFixture['holdExchanges']> | undefined;
    try {
      // The catalog, through another token: the connection of these two is not opened yet.
      await expect
        .poll(async () => toolNames(withWide), { message: 'the catalog of aud', timeout: 20_000 })
        .toContain('aud__subject');
      // First calls of both in flight at once, each one's exchange held at the provider until
      // both were asked for: each token gets an exchange of its own (one connection per token).
      // A connection shared by the two (one per principal and scope set) asks once, so this
      // never reaches two, and its one token would answer both calls with one subject.
      const exchanges = oidc.holdExchanges();
      gate = exchanges;
      const together = Promise.all([text(withA, 'aud__subject'), text(withB, 'aud__subject')]);
      await expect
        .poll(() => exchanges.held, { message: 'an exchange asked for each token', timeout: 20_000 })
        .toBe(2);
      exchanges.release();
      expect(await together).toEqual(['subject client app-a', 'subject client app-b']);
      // One after the other too; app-a's is the control.
      expect(await text(withA, 'aud__subject')).toBe('subject client app-a');
      expect(await text(withB, 'aud__subject')).toBe('subject client app-b');
      expect(await text(withA, 'aud__subject')).toBe('subject client app-a');
      expect(await text(withB, 'aud__scopes')).toBe('scope mcp tools:read');
    } finally {
      gate?.release();
      await Promise.all([withA.close(), withB.close(), withWide.close()]);
    }
  }, 60_000);
});
