import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type OAuthFixture, startOAuthFixture } from '../fixtures/oauth/oauth-fixture.js';
import { CookieBrowser } from '../fixtures/oidc/cookie-browser.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, toolNames } from './gateway-test-helpers.js';

/*
 * The browser login at the front door's own issuer (`gateway.auth.login`), with real parts: a
 * real OpenID provider (oidc-provider) that signs Alice and Bob in to the gateway and to its
 * browser login, the OAuth fixture as a `perUser` upstream (its `whoami` names the account a
 * call runs as), a stdio fixture whose definitions change under pins, and a scripted browser
 * per person (a cookie jar, redirects followed one by one). Alice is the owner.
 */

const LOGIN_SECRET = 'gateway-login-secret-0123456789';
let oidc: OidcFixture;
let notes: OAuthFixture;
let gateway: Gateway;
let provider: McpToolHub;
let url: string;
let origin: string;
let dir: string;
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-browser-login-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const audience = `${origin}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [audience],
    users: { alice: { groups: ['ops'] }, bob: { groups: ['dev'] } },
    clients: { 'app-a': 'app-a-secret-0123456789', 'gateway-login': LOGIN_SECRET },
    // The first is the test's own token client's; the second the gateway's login.
    redirectUris: ['http://127.0.0.1/callback', `${origin}/oauth/login`],
  });
  notes = await startOAuthFixture({ canary: 'notes-canary' });
  const config = {
    servers: {
      notes: {
        type: 'streamable-http' as const,
        url: notes.mcpUrl,
        auth: { type: 'oauth' as const, perUser: true },
      },
      dict: stdioFixture('shifting', ['--era', 'legacy']),
    },
    pins: { file: join(dir, 'pins.json') },
    gateway: {
      auth: {
        type: 'oauth' as const,
        issuer: oidc.issuer,
        audience,
        owner: { principals: ['oauth:alice'] },
        login: { clientId: 'gateway-login', clientSecret: LOGIN_SECRET },
      },
    },
  };
  const registry = new ToolRegistry();
  provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    tokenStore: new MemoryTokenStore(),
    connectTimeoutMs: 50_000,
    eraCache: false,
  });
  gateway = createGateway({ registry, provider, config });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port }));
  tokens.alice = await oidc.userToken('alice', 'app-a', audience);
  tokens.bob = await oidc.userToken('bob', 'app-a', audience);
}, 90_000);

afterAll(async () => {
  vi.useRealTimers();
  await gateway?.close();
  await provider?.close();
  await Promise.all([oidc?.close(), notes?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const as = (user: 'alice' | 'bob') =>
  connectClient(url, 'modern', { headers: { authorization: `Bearer ${tokens[user]}` } });

async function text(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  return `${result.isError ? 'error: ' : ''}${(result.content ?? []).map((block) => block.text ?? '').join('')}`;
}

/** The gateway's sign-in link in a tool error or an `mcp_auth` answer. */
function signInLink(answer: string): URL {
  const found = /https?:\/\/[^\s"',)]+\/oauth\/signin\?flow=[^\s"',)]+/.exec(answer);
  if (!found) throw new Error(`no sign-in link in: ${answer}`);
  return new URL(found[0]);
}

const atNotes = (each: URL) => each.origin === new URL(notes.mcpUrl).origin;

describe('a per-user sign-in bound to its starter by the browser login', () => {
  it('refuses the link in another user’s browser and the upstream URL at the callback; the starter completes it and their calls run as them', async () => {
    const bob = await as('bob');
    try {
      const link = signInLink(await text(bob, 'mcp_auth', { server: 'notes' }));
      // The link is the gateway's own: the upstream's authorization URL is sealed inside it.
      expect(link.origin).toBe(origin);
      expect(link.href).not.toContain(new URL(notes.mcpUrl).host);

      // Alice opens Bob's link: she logs in at the issuer as herself and is refused, without
      // ever being sent to the upstream (she never learns the authorization URL).
      const alice = new CookieBrowser('alice');
      const opened = await alice.open(link);
      expect(opened.response?.status).toBe(403);
      expect(await opened.response?.text()).not.toMatch(/bob|alice|notes/);
      expect(alice.history.some((entry) => atNotes(new URL(entry.url)))).toBe(false);
      expect(alice.history.map((entry) => new URL(entry.url).pathname)).toContain('/oauth/login');

      // Bob's browser goes through his link up to the upstream's authorization URL; that URL,
      // handed to Alice, signs her in at the upstream, and the callback refuses her browser.
      const bobBrowser = new CookieBrowser('bob');
      const upstream = await bobBrowser.open(link, { stop: atNotes });
      expect(upstream.response).toBeUndefined();
      const stolen = await alice.open(upstream.url);
      expect(new URL(stolen.url).pathname).toBe('/oauth/callback');
      expect(stolen.response?.status).toBe(403);
      await stolen.response?.text();
      // Bob's calls do not run as Alice's upstream account: he is not signed in.
      expect(await text(bob, 'mcp_auth', { server: 'notes' })).not.toContain('authorized');

      // The control: Bob, in his own browser, with a fresh link, completes it; his calls run as him.
      const fresh = signInLink(await text(bob, 'mcp_auth', { server: 'notes' }));
      const done = await bobBrowser.open(fresh);
      expect(new URL(done.url).pathname).toBe('/oauth/callback');
      expect(done.response?.status).toBe(200);
      await done.response?.text();
      await expect
        .poll(async () => text(bob, 'mcp_auth', { server: 'notes' }), {
          message: 'Bob signed in',
          timeout: 20_000,
        })
        .toContain('authorized');
      await expect
        .poll(async () => toolNames(bob), { message: 'the catalog of notes', timeout: 20_000 })
        .toContain('notes__whoami');
      expect(await text(bob, 'notes__whoami')).toMatch(/user bob$/);

      // Replayed: the same callback, with the cookies it came with, is refused (used once).
      const callback = bobBrowser.history.at(-1)!;
      expect(new URL(callback.url).pathname).toBe('/oauth/callback');
      const replayed = await fetch(callback.url, {
        headers: { cookie: callback.cookie },
        redirect: 'manual',
      });
      expect(replayed.status).toBe(403);
      await replayed.text();

      // A browser cookie never opens /mcp: Bob's session alone is refused 401.
      const session = bobBrowser.cookies(origin).get('mcptools_session');
      expect(session).toBeDefined();
      const withCookie = await fetch(url, {
        method: 'POST',
        headers: {
          cookie: `mcptools_session=${session}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(withCookie.status).toBe(401);
      await withCookie.text();
    } finally {
      await bob.close();
    }
  }, 90_000);

  it('refuses an expired sign-in link (the control: the same link in time is followed)', async () => {
    // Alice never signed in to notes: `mcp_auth` hands her a link.
    const alice = await as('alice');
    try {
      const link = signInLink(await text(alice, 'mcp_auth', { server: 'notes' }));
      const browser = new CookieBrowser('alice');
      // Six minutes on (a link lives five): the link no longer opens.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6 * 60_000 });
      const expired = await browser.request(link);
      vi.useRealTimers();
      expect(expired.status).toBe(403);
      await expired.text();
      const inTime = await browser.request(link);
      expect([inTime.status, new URL(inTime.headers.get('location') ?? '').origin]).toEqual([
        303,
        oidc.issuer,
      ]);
      await inTime.text();
    } finally {
      vi.useRealTimers();
      await alice.close();
    }
  }, 60_000);
});

describe('the status page’s approve button', () => {
  it('approves a held-back definition for the owner’s browser; refuses a non-owner, a missing CSRF token and a foreign Origin', async () => {
    const owner = await as('alice');
    try {
      await owner.callTool({ name: 'dict__shift', arguments: { change: 'parameter' } });
      await expect
        .poll(() => toolNames(owner), { message: 'lookup is quarantined', timeout: 15_000 })
        .not.toContain('dict__lookup');

      // Alice's browser: the page sends it to the login, and back to the page with a session.
      const alice = new CookieBrowser('alice');
      const shown = await alice.open(new URL('/', origin), {});
      expect(alice.history[0]?.url).toBe(`${origin}/`);
      expect(shown.response?.status).toBe(200);
      const html = (await shown.response?.text()) ?? '';
      expect(html).toContain('Held back by pins');
      const form = /<form method="post" action="\/pins\/approve"[\s\S]*?name="csrf" value="([^"]+)"/.exec(
        html,
      );
      expect(form).not.toBeNull();
      const csrf = form![1]!.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');

      // Bob's browser: his page has no button, and a post with Alice's token is refused.
      const bob = new CookieBrowser('bob');
      const bobsPage = await bob.open(new URL('/', origin));
      expect(bobsPage.response?.status).toBe(200);
      expect(await bobsPage.response?.text()).not.toContain('/pins/approve');
      const post = (browser: CookieBrowser, body: Record<string, string>, from = origin) =>
        browser.request(new URL('/pins/approve', origin), {
          method: 'POST',
          headers: { origin: from, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(body).toString(),
        });
      const fields = { server: 'dict', name: 'lookup' };
      for (const refusedPost of [
        await post(bob, { ...fields, csrf }),
        await post(alice, fields),
        await post(alice, { ...fields, csrf: 'forged' }),
        await post(alice, { ...fields, csrf }, 'http://evil.example'),
        // No session at all: a cross-site form carries no cookie of a SameSite=Lax session.
        await fetch(new URL('/pins/approve', origin), {
          method: 'POST',
          headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...fields, csrf }).toString(),
        }),
      ]) {
        expect(refusedPost.status).toBe(403);
        await refusedPost.text();
      }
      expect(await toolNames(owner)).not.toContain('dict__lookup');

      // The owner's button: approved as `mcptools pins approve dict/lookup` would, served at once.
      const approved = await post(alice, { ...fields, csrf });
      expect([approved.status, approved.headers.get('location')]).toEqual([303, '/']);
      await approved.text();
      await expect
        .poll(() => toolNames(owner), { message: 'lookup approved', timeout: 15_000 })
        .toContain('dict__lookup');
    } finally {
      await owner.close();
    }
  }, 90_000);
});
