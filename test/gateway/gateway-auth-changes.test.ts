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
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, toolNames, watchGetStream, watchToolChanges } from './gateway-test-helpers.js';

/*
 * `mcp_auth` in full mode: it is served while an admitted server waits for OAuth
 * sign-in, and the tool list follows the hub's state — signing the server in brings its tools
 * and takes `mcp_auth` away, a refused token brings `mcp_auth` back — each with a
 * `list_changed`, in both eras at once. A profile that denies the server hears none of it.
 */

let fixture: OAuthFixture;
let provider: McpToolHub;
let registry: ToolRegistry;
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  fixture = await startOAuthFixture();
  const config = {
    servers: {
      remote: { type: 'streamable-http' as const, url: fixture.mcpUrl },
      echo: stdioFixture('echo'),
    },
  };
  registry = new ToolRegistry();
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
    profiles: { local: { servers: { deny: ['remote'] } } },
  });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port: 0 }));
  expect(provider.status('remote')?.state).toBe('auth_required');
});

afterAll(async () => {
  await gateway?.close();
  await provider?.close();
  await fixture?.close();
});

describe('mcp_auth in full mode', () => {
  it('follows the hub: gone once the server is signed in, back when its token is refused', async () => {
    const streams = [watchGetStream(), watchGetStream()];
    const modern = await connectClient(url, 'modern');
    const legacy = await connectClient(url, 'legacy', { fetch: streams[0]!.fetch });
    const local = await connectClient(`${url}/local`, 'legacy', { fetch: streams[1]!.fetch });
    try {
      const [modernChanges, legacyChanges, localChanges] = await Promise.all([
        watchToolChanges(modern, 'modern'),
        watchToolChanges(legacy, 'legacy'),
        watchToolChanges(local, 'legacy'),
      ]);
      // A 2025 client opens its GET stream (where unsolicited notifications go) after connecting.
      await waitUntil(
        () => streams.every((stream) => stream.open()),
        'until the 2025 clients opened their GET stream',
      );
      expect(await toolNames(modern)).toContain('mcp_auth');
      expect(await toolNames(legacy)).toContain('mcp_auth');
      expect(await toolNames(local)).not.toContain('mcp_auth');

      const started = await legacy.callTool({ name: 'mcp_auth', arguments: { server: 'remote' } });
      const { url: signIn } = JSON.parse((started.content as { text: string }[])[0]!.text) as { url: string };
      await followAuthorizationUrl(new URL(signIn));
      await expect.poll(() => provider.status('remote')?.state, { timeout: 20_000 }).toBe('connected');
      await waitUntil(() => modernChanges() > 0, 'until the 2026 client heard the sign-in');
      await waitUntil(() => legacyChanges() > 0, 'until the 2025 client heard the sign-in');
      for (const client of [modern, legacy]) {
        const served = await toolNames(client);
        expect(served).toContain('remote__whoami');
        expect(served).not.toContain('mcp_auth');
      }

      // The authorization server forgets every token: the next call is refused, no refresh helps.
      const afterSignIn = [modernChanges(), legacyChanges()];
      fixture.revokeRefreshTokens();
      fixture.invalidateAccessTokens();
      const refused = await modern.callTool({ name: 'remote__whoami', arguments: {} });
      expect(refused.isError).toBe(true);
      await expect.poll(() => provider.status('remote')?.state, { timeout: 20_000 }).toBe('auth_required');
      await waitUntil(() => modernChanges() > afterSignIn[0]!, 'until the 2026 client heard the refusal');
      await waitUntil(() => legacyChanges() > afterSignIn[1]!, 'until the 2025 client heard the refusal');
      expect(await toolNames(modern)).toContain('mcp_auth');
      expect(await toolNames(legacy)).toContain('mcp_auth');

      // The profile that denies the server heard none of it: a native tool is its first news.
      const unregister = registry.register({
        name: 'local_marker',
        description: 'A native tool',
        parameters: { type: 'object', properties: {} },
        execute: async () => ({ content: [{ type: 'text', text: 'marker' }] }),
      });
      try {
        await waitUntil(() => localChanges() > 0, 'until the denying profile heard the native tool');
        // Announcements keep their order on its stream: the earlier changes would have come first.
        expect(localChanges()).toBe(1);
      } finally {
        unregister();
      }
    } finally {
      await local.close();
      await legacy.close();
      await modern.close();
    }
  });
});
