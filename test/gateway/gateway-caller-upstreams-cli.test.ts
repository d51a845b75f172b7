import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthFixture, startOAuthFixture } from '../fixtures/oauth/oauth-fixture.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { connectClient, toolNames } from './gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from './start-serve-http.js';

/*
 * The built CLI's `serve --http` with a `perUser` upstream behind a real OpenID front door: a
 * caller signs in through `mcp_auth` and the gateway's `/oauth/callback`, their call runs as
 * them, and the vault file holds their entry under their principal. Run `npm run build` first.
 */

let dir: string;
let oidc: OidcFixture;
let notes: OAuthFixture;
let served: ServedHttp;
let aliceToken: string;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const audience = `http://127.0.0.1:${port}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [audience],
    users: { alice: { groups: ['ops'] } },
    clients: { 'app-a': 'app-a-secret-0123456789' },
  });
  notes = await startOAuthFixture({ canary: 'cli-notes-canary' });
  dir = mkdtempSync(join(tmpdir(), 'mcptools-per-user-'));
  const config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: { notes: { url: notes.mcpUrl, auth: { type: 'oauth', perUser: true } } },
      gateway: { auth: { type: 'oauth', issuer: oidc.issuer, audience } },
    }),
  );
  served = await startServeHttp(['--config', config, '--http', `127.0.0.1:${port}`], {
    env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state') },
  });
  aliceToken = await oidc.userToken('alice', 'app-a', audience);
}, 90_000);

afterAll(async () => {
  await served?.close();
  await Promise.all([oidc?.close(), notes?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function text(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content?: { text?: string }[];
    isError?: boolean;
  };
  return `${result.isError ? 'error: ' : ''}${(result.content ?? []).map((block) => block.text ?? '').join('')}`;
}

describe('serve --http with a perUser upstream (built CLI)', () => {
  it('signs a caller in through /oauth/callback and calls as them', async () => {
    const alice = await connectClient(served.url, 'modern', {
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    try {
      const started = await text(alice, 'mcp_auth', { server: 'notes' });
      const found = /https?:\/\/[^\s"',)]+\/authorize\?[^\s"',)]+/.exec(started);
      expect(found).not.toBeNull();
      const url = new URL(found![0]);
      expect(url.searchParams.get('redirect_uri')).toBe(`${new URL(served.url).origin}/oauth/callback`);
      url.searchParams.set('login_hint', 'alice');
      const redirect = await fetch(url, { redirect: 'manual' });
      const location = redirect.headers.get('location')!;
      const page = await fetch(location);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Finish signing in');
      // The page asks for the caller's gateway token: Alice's finishes Alice's sign-in.
      const form = new URL(location).searchParams;
      form.set('token', aliceToken);
      const finished = await fetch(new URL('/oauth/callback', location), { method: 'POST', body: form });
      expect(finished.status).toBe(200);
      await finished.text();
      for (let attempt = 0; attempt < 200 && !(await toolNames(alice)).includes('notes__whoami'); attempt++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await text(alice, 'notes__whoami')).toMatch(/user alice$/);
      const vault = readFileSync(join(dir, 'config', 'mcptools', 'oauth-vault.json'), 'utf8');
      expect(Object.keys((JSON.parse(vault) as { servers: object }).servers)).toEqual([
        `principal:${encodeURIComponent('oauth:alice')}:${notes.mcpUrl}`,
      ]);
      expect(served.stderr()).not.toContain('cli-notes-canary');
    } finally {
      await alice.close();
    }
  }, 60_000);
});
