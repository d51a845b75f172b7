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
import { startAudienceServer } from '../fixtures/oidc/audience-server.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, toolNames } from './gateway-test-helpers.js';

/*
 * Upstream calls as the caller, with real authorization servers: Alice and Bob sign in at a
 * real OpenID provider (oidc-provider) to reach the gateway. `notes` is the OAuth fixture's MCP
 * server, configured `perUser`: each of them signs in to it for themselves, through the
 * gateway's /oauth/callback. `aud` accepts only tokens whose audience is itself: the gateway
 * exchanges (RFC 8693, at the same provider) each caller's token for one.
 */

let oidc: OidcFixture;
let notes: OAuthFixture;
let audienceServer: Awaited<ReturnType<typeof startAudienceServer>>;
let gateway: Gateway;
let provider: McpToolHub;
let url: string;
let gatewayOrigin: string;
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };
const store = new MemoryTokenStore();
const CI_TOKEN = 'ci-static-token-0123456789abcdef';

beforeAll(async () => {
  const [port, audiencePort] = [await freePort(), await freePort()];
  const audience = `http://127.0.0.1:${port}/mcp`;
  const upstreamAudience = `http://127.0.0.1:${audiencePort}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [audience, upstreamAudience],
    users: { alice: { groups: ['ops'] }, bob: { groups: ['dev'] } },
    clients: { 'app-a': 'app-a-secret-0123456789', gateway: 'gateway-secret-0123456789' },
  });
  audienceServer = await startAudienceServer(oidc.issuer, audiencePort);
  notes = await startOAuthFixture({ canary: 'notes-canary' });
  const config = {
    servers: {
      notes: {
        type: 'streamable-http' as const,
        url: notes.mcpUrl,
        auth: { type: 'oauth' as const, perUser: true },
      },
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
    gateway: {
      auth: { type: 'oauth' as const, issuer: oidc.issuer, audience },
      tokens: { ci: { token: CI_TOKEN, principal: 'ci-bot' } },
    },
  };
  const registry = new ToolRegistry();
  provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    tokenStore: store,
    connectTimeoutMs: 30_000,
    eraCache: false,
  });
  gateway = createGateway({ registry, provider, config });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port }));
  gatewayOrigin = new URL(url).origin;
  tokens.alice = await oidc.userToken('alice', 'app-a', audience);
  tokens.bob = await oidc.userToken('bob', 'app-a', audience);
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await provider?.close();
  await Promise.all([oidc?.close(), notes?.close(), audienceServer?.close()]);
});

const as = (user: 'alice' | 'bob' | 'ci', era: 'modern' | 'legacy' = 'modern') =>
  connectClient(url, era, {
    headers: { authorization: `Bearer ${user === 'ci' ? CI_TOKEN : tokens[user]}` },
  });

/** The text of a tool result (prefixed `error: ` for an error result). */
async function text(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  return `${result.isError ? 'error: ' : ''}${(result.content ?? []).map((block) => block.text ?? '').join('')}`;
}

/** The authorization URL in a sign-in error or an `mcp_auth` answer. */
function authorizationUrl(answer: string): URL {
  const found = /https?:\/\/[^\s"',)]+\/authorize\?[^\s"',)]+/.exec(answer);
  if (!found) throw new Error(`no authorization URL in: ${answer}`);
  return new URL(found[0]);
}

/**
 * Plays `user` in the browser: signs in at the fixture, follows its redirect to the gateway, and
 * gives the page there `user`'s gateway token (only the caller who started a sign-in finishes it).
 */
async function signIn(
  user: string,
  authorization: URL,
  token = tokens[user as 'alice' | 'bob'],
): Promise<Response> {
  const withUser = new URL(authorization);
  withUser.searchParams.set('login_hint', user);
  const response = await fetch(withUser, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${response.status}`);
  const page = await fetch(location);
  expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('Finish signing in')]);
  const form = new URL(location).searchParams;
  form.set('token', token);
  return fetch(new URL('/oauth/callback', location), { method: 'POST', body: form });
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('per-user upstream OAuth (perUser: true)', () => {
  it('hands each caller their own sign-in; each call runs with the caller’s own token', async () => {
    const alice = await as('alice');
    const bob = await as('bob');
    try {
      // Nobody signed in yet: `mcp_auth` is served, and hands Alice a URL of her own.
      expect(await toolNames(alice)).toContain('mcp_auth');
      const started = await text(alice, 'mcp_auth', { server: 'notes' });
      const aliceUrl = authorizationUrl(started);
      // The redirect comes back to the gateway's own callback; PKCE is on; the state is random.
      expect(aliceUrl.searchParams.get('redirect_uri')).toBe(`${gatewayOrigin}/oauth/callback`);
      expect(aliceUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(aliceUrl.searchParams.get('state')?.length).toBeGreaterThanOrEqual(16);

      // A redirect with a state no flow waits for changes nothing.
      const forged = await fetch(`${gatewayOrigin}/oauth/callback?code=x&state=forged`);
      expect(forged.status).toBe(400);
      await forged.text();

      const page = await signIn('alice', aliceUrl);
      expect(page.status).toBe(200);
      await page.text();
      await until(
        async () => (await text(alice, 'mcp_auth', { server: 'notes' })).includes('authorized'),
        'Alice',
      );
      // Her connection brought the catalog; her call runs with her token.
      await until(async () => (await toolNames(alice)).includes('notes__whoami'), 'the catalog');
      expect(await text(alice, 'notes__whoami')).toMatch(/^client client-\d+ user alice$/);

      // Bob sees the tool, and calling it gets the sign-in error with a URL of his own.
      expect(await toolNames(bob)).toContain('notes__whoami');
      const refused = await text(bob, 'notes__whoami');
      expect(refused).toMatch(/^error: .*needs you to sign in: open http/);
      expect(refused).not.toContain('alice');
      const bobUrl = authorizationUrl(refused);
      expect(bobUrl.searchParams.get('state')).not.toBe(aliceUrl.searchParams.get('state'));
      expect(bobUrl.searchParams.get('client_id')).not.toBe(aliceUrl.searchParams.get('client_id'));
      // `mcp_auth` tells Bob his own state: pending, on his URL; Alice's stays authorized.
      const bobStatus = await text(bob, 'mcp_auth', { server: 'notes' });
      expect(bobStatus).toContain('pending');
      expect(authorizationUrl(bobStatus).href).toBe(bobUrl.href);

      (await signIn('bob', bobUrl)).text();
      await until(
        async () => (await text(bob, 'mcp_auth', { server: 'notes' })).includes('authorized'),
        'Bob',
      );
      expect(await text(bob, 'notes__whoami')).toMatch(/^client client-\d+ user bob$/);
      expect(await text(alice, 'notes__whoami')).toMatch(/user alice$/);

      // Each principal's tokens are kept in the vault under their own key, none under the URL.
      const keys = (await store.list()).map((entry) => entry.serverUrl);
      expect(keys).toEqual(
        expect.arrayContaining([
          `principal:${encodeURIComponent('oauth:alice')}:${notes.mcpUrl}`,
          `principal:${encodeURIComponent('oauth:bob')}:${notes.mcpUrl}`,
        ]),
      );
      expect((await store.get(notes.mcpUrl))?.tokens).toBeUndefined();
      // The gateway's own tokens never went upstream.
      for (const header of notes.state.seenAuthorization) {
        expect(header).not.toContain(tokens.alice);
        expect(header).not.toContain(tokens.bob);
      }
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  }, 60_000);
});

describe.each(eras)(
  "a perUser server's lists, prompts, completions and subscriptions ($label)",
  ({ era }) => {
    // The operator signed the shared connection in (their own account); Carol and Dave reach the
    // gateway with static tokens. `plain` is a server that takes no per-caller credentials.
    const CAROL = 'carol-static-token-0123456789abcdef';
    const DAVE = 'dave-static-token-0123456789abcdef';
    let shared: { gateway: Gateway; provider: McpToolHub; url: string } | undefined;
    const warnings: string[] = [];

    beforeAll(async () => {
      const config = {
        servers: {
          notes: {
            type: 'streamable-http' as const,
            url: notes.mcpUrl,
            auth: { type: 'oauth' as const, perUser: true },
          },
          plain: stdioFixture('notify'),
        },
        gateway: {
          tokens: {
            carol: { token: CAROL, principal: 'carol' },
            dave: { token: DAVE, principal: 'dave' },
          },
        },
      };
      const registry = new ToolRegistry();
      const hub = await loadMcpServers(config, registry, {
        ...gatewayServerRequests(),
        tokenStore: new MemoryTokenStore(),
        connectTimeoutMs: 30_000,
        eraCache: false,
        onAuthorizationUrl: (url) => followAuthorizationUrl(url),
      });
      expect(hub.status('notes')?.state).toBe('connected');
      hub.on('warning', (message) => warnings.push(message));
      const served = createGateway({ registry, provider: hub, config });
      const { url } = await served.listen({ host: '127.0.0.1', port: 0 });
      shared = { gateway: served, provider: hub, url };
    }, 60_000);

    afterAll(async () => {
      await shared?.gateway.close();
      await shared?.provider.close();
    });

    const connect = (token: string) =>
      connectClient(shared!.url, era, { headers: { authorization: `Bearer ${token}` } });

    it('gives a caller who never signed in none of the operator’s account; one who did gets their own', async () => {
      const carol = await connect(CAROL);
      const dave = await connect(DAVE);
      const completion = (client: Client) =>
        client.complete({
          ref: { type: 'ref/prompt', name: 'notes__draft' },
          argument: { name: 'topic', value: '' },
        });
      try {
        // Dave never signed in to notes: no list, template, prompt, completion or subscription of it.
        const resources = (await dave.listResources()).resources.map((resource) => resource.uri);
        expect(resources).not.toContain('notes://operator/inbox');
        // The control: a plain server's resources are served to him.
        expect(resources).toContain('notify://counter');
        const templates = (await dave.listResourceTemplates()).resourceTemplates.map(
          (entry) => entry.uriTemplate,
        );
        expect(templates).not.toContain('notes://{account}/inbox');
        expect(templates).toContain('notify://rooms/{room}');
        const prompts = (await dave.listPrompts()).prompts.map((prompt) => prompt.name);
        expect(prompts).not.toContain('notes__draft');
        expect(prompts).toContain('plain__weather');
        await expect(completion(dave)).rejects.toThrow();
        await expect(dave.subscribeResource({ uri: 'notes://operator/inbox' })).rejects.toThrow();
        await expect(dave.readResource({ uri: 'notes://operator/inbox' })).rejects.toThrow();
        await expect(dave.getPrompt({ name: 'notes__draft' })).rejects.toThrow(/sign in/);
        expect(notes.state.subscribed).toEqual([]);
        // Finding which server offers a URI never lists a per-caller server for nobody: no
        // warning that a request names no caller (the plain server is listed: the control).
        expect(warnings.filter((warning) => /names no caller/.test(warning))).toEqual([]);

        // Carol signs in (her call's sign-in error hands her a URL, opened in her browser): her
        // own account from then on, never the operator's.
        const refused = await text(carol, 'notes__whoami');
        expect(refused).toMatch(/^error: .*needs you to sign in/);
        (await signIn('carol', authorizationUrl(refused), CAROL)).text();
        await until(async () => (await text(carol, 'notes__whoami')).endsWith('user carol'), 'Carol');
        await expect
          .poll(async () => (await carol.listResources()).resources.map((resource) => resource.uri), {
            message: "Carol's own inbox, once she signed in",
            timeout: 10_000,
          })
          .toContain('notes://carol/inbox');
        expect((await carol.listResources()).resources.map((resource) => resource.uri)).not.toContain(
          'notes://operator/inbox',
        );
        expect((await carol.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('notes__draft');
        expect((await completion(carol)).completion.values).toEqual(['carol-draft']);
        const read = await carol.readResource({ uri: 'notes://carol/inbox' });
        expect(read.contents[0]).toMatchObject({ text: 'mail of carol' });
        const draft = await carol.getPrompt({ name: 'notes__draft' });
        expect(draft.messages[0]?.content).toEqual({ type: 'text', text: 'draft as carol' });
        // Dave still gets nothing of notes after Carol signed in.
        expect((await dave.listResources()).resources.map((resource) => resource.uri)).not.toContain(
          'notes://carol/inbox',
        );
        await expect(completion(dave)).rejects.toThrow();
      } finally {
        await Promise.all([carol.close(), dave.close()]);
      }
    }, 90_000);
  },
);

describe('perUser outside a gateway', () => {
  it('is ignored by the library: one shared sign-in, as before', async () => {
    const registry = new ToolRegistry();
    const shared = new MemoryTokenStore();
    const hub = await loadMcpServers(
      {
        servers: {
          notes: { type: 'streamable-http', url: notes.mcpUrl, auth: { type: 'oauth', perUser: true } },
        },
      },
      registry,
      { tokenStore: shared, eraCache: false, onAuthorizationUrl: (url) => followAuthorizationUrl(url) },
    );
    try {
      expect(hub.status('notes')?.state).toBe('connected');
      const tool = (await registry.resolveAll()).find((candidate) => candidate.name === 'notes__whoami');
      const result = await tool!.execute('call', {});
      expect(result.isError).toBeFalsy();
      expect((await shared.get(notes.mcpUrl))?.tokens).toBeDefined();
      expect((await shared.list()).map((entry) => entry.serverUrl)).toEqual([notes.mcpUrl]);
    } finally {
      await hub.close();
    }
  }, 30_000);
});

describe.each(eras)('token exchange (RFC 8693, $label)', ({ era }) => {
  it('calls the upstream with a token of its own audience and the caller’s subject', async () => {
    const alice = await as('alice', era);
    const bob = await as('bob', era);
    try {
      await until(async () => (await toolNames(alice)).includes('aud__whoami'), 'the catalog');
      expect(await text(alice, 'aud__whoami')).toBe(`sub alice aud ${audienceServer.url}`);
      expect(await text(bob, 'aud__whoami')).toBe(`sub bob aud ${audienceServer.url}`);
      // Kept for its lifetime: more calls exchange nothing more.
      const exchanged = oidc.counts.tokenExchange;
      expect(await text(alice, 'aud__whoami')).toBe(`sub alice aud ${audienceServer.url}`);
      expect(oidc.counts.tokenExchange).toBe(exchanged);
      // A caller with a static token has no token to exchange: told so, and nothing is sent.
      const ci = await as('ci', era);
      try {
        const refused = await text(ci, 'aud__whoami');
        expect(refused).toMatch(/^error: .*call the gateway with an OAuth access token/);
        expect(refused).not.toMatch(/alice|bob/);
      } finally {
        await ci.close();
      }
      // The callers' own tokens never reached the upstream.
      expect(audienceServer.seen.length).toBeGreaterThan(0);
      for (const header of audienceServer.seen) {
        expect(header).not.toContain(tokens.alice);
        expect(header).not.toContain(tokens.bob);
      }
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  }, 60_000);
});
