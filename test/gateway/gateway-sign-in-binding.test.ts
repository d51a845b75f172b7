import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type OAuthFixture, startOAuthFixture } from '../fixtures/oauth/oauth-fixture.js';
import { connectClient } from './gateway-test-helpers.js';

/*
 * A sign-in link is bound to the caller who got it: Bob is handed a link to sign in to the
 * `perUser` upstream (the OAuth fixture, whose `whoami` names who signed in); when Alice's
 * browser opens it, she signs in upstream as herself, and the gateway's `/oauth/callback` page
 * asks for the caller's gateway token. Alice's token is not Bob's: the flow ends, Bob's calls
 * never run as Alice. The control: Bob finishing his own sign-in with his token.
 */

const ALICE = 'alice-static-token-0123456789';
const BOB = 'bob-static-token-0123456789';

let notes: OAuthFixture;
let gateway: Gateway;
let provider: McpToolHub;
let url: string;

beforeAll(async () => {
  notes = await startOAuthFixture({ canary: 'binding-canary' });
  const config = {
    servers: {
      notes: {
        type: 'streamable-http' as const,
        url: notes.mcpUrl,
        auth: { type: 'oauth' as const, perUser: true },
      },
    },
    gateway: {
      tokens: { alice: { token: ALICE, principal: 'alice' }, bob: { token: BOB, principal: 'bob' } },
    },
  };
  const registry = new ToolRegistry();
  provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    tokenStore: new MemoryTokenStore(),
    connectTimeoutMs: 30_000,
    eraCache: false,
  });
  gateway = createGateway({ registry, provider, config });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port: 0 }));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await provider?.close();
  await notes?.close();
});

/** The text of a tool result (`error: …` for an error result or a refused call). */
async function text(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args }).catch((error: Error) => ({
    isError: true,
    content: [{ type: 'text', text: error.message }],
  }))) as {
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  return `${result.isError ? 'error: ' : ''}${(result.content ?? []).map((block) => block.text ?? '').join('')}`;
}

function authorizationUrl(answer: string): URL {
  const found = /https?:\/\/[^\s"',)]+\/authorize\?[^\s"',)]+/.exec(answer);
  if (!found) throw new Error(`no authorization URL in: ${answer}`);
  return new URL(found[0]);
}

/** `user`'s browser opens `link`, signs in upstream as `user`, and answers the gateway's page with `token`. */
async function complete(link: URL, user: string, token: string): Promise<Response> {
  const withUser = new URL(link);
  withUser.searchParams.set('login_hint', user);
  const location = (await fetch(withUser, { redirect: 'manual' })).headers.get('location');
  if (!location) throw new Error('the authorization server did not redirect');
  const page = await fetch(location);
  expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('Finish signing in')]);
  const form = new URL(location).searchParams;
  form.set('token', token);
  return fetch(new URL('/oauth/callback', location), { method: 'POST', body: form });
}

describe('a sign-in link bound to its starter', () => {
  it('refuses Bob’s link completed by Alice, and lets Bob complete his own', async () => {
    const bob = await connectClient(url, 'modern', { headers: { authorization: `Bearer ${BOB}` } });
    try {
      const link = authorizationUrl(await text(bob, 'mcp_auth', { server: 'notes' }));
      // Alice's browser opens Bob's link and signs in upstream as Alice; her token is not Bob's.
      const refused = await complete(link, 'alice', ALICE);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('started by another caller');
      // Nothing was bound to Bob: he still has to sign in, and no call of his runs as Alice.
      expect(await text(bob, 'mcp_auth', { server: 'notes' })).toMatch(/needs_authorization|pending/);
      // (Nobody is signed in, so the catalog has no tool of `notes` yet; Alice's sign-in brought none.)
      expect(await text(bob, 'notes__whoami')).toMatch(/^error: /);
      // A page answered with no token the gateway knows is refused the same way.
      const again = authorizationUrl(await text(bob, 'mcp_auth', { server: 'notes' }));
      expect((await complete(again, 'alice', 'not-a-gateway-token-0123')).status).toBe(403);

      // The control: Bob, with his own token, finishes his own sign-in.
      const own = authorizationUrl(await text(bob, 'mcp_auth', { server: 'notes' }));
      const finished = await complete(own, 'bob', BOB);
      expect(finished.status).toBe(200);
      await finished.text();
      await expect
        .poll(() => text(bob, 'mcp_auth', { server: 'notes' }), { message: 'Bob signed in', timeout: 20_000 })
        .toContain('authorized');
      await expect
        .poll(() => text(bob, 'notes__whoami'), { message: 'Bob’s call', timeout: 20_000 })
        .toMatch(/user bob$/);
    } finally {
      await bob.close();
    }
  }, 60_000);
});
