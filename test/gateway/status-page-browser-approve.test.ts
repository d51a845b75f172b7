import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { binaryPath, hasBinary } from '../helpers/system-binaries.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway, toolNames } from './gateway-test-helpers.js';

// The status page's approve button in headless Chromium, through the browser login at a real
// OpenID provider: the owner signs in and approves a definition pins hold back; a non-owner
// gets no button; a form posted from another site changes nothing. The browser sets the
// cookies, `SameSite` and `Origin` itself: nothing is injected.
const CHROMIUM = binaryPath('chromium');
const LOGIN_SECRET = 'gateway-login-secret-0123456789';

describe.skipIf(!hasBinary('chromium'))('the approve button in headless Chromium', () => {
  let oidc: OidcFixture;
  let running: RunningGateway;
  let browser: Browser;
  let attacker: Server;
  let owner: Client;
  let origin: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-approve-browser-'));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    oidc = await startOidcProvider({
      jwtResources: [`${origin}/mcp`],
      users: { alice: { groups: [] }, bob: { groups: [] } },
      clients: { 'app-a': 'app-a-secret-0123456789', 'gateway-login': LOGIN_SECRET },
      redirectUris: ['http://127.0.0.1/callback', `${origin}/oauth/login`],
    });
    running = await startGateway(
      {
        servers: { dict: stdioFixture('shifting', ['--era', 'legacy']) },
        pins: { file: join(dir, 'pins.json') },
        gateway: {
          auth: {
            type: 'oauth',
            issuer: oidc.issuer,
            audience: `${origin}/mcp`,
            owner: { principals: ['oauth:alice'] },
            login: { clientId: 'gateway-login', clientSecret: LOGIN_SECRET },
          },
        },
      },
      {},
      port,
    );
    const token = await oidc.userToken('alice', 'app-a', `${origin}/mcp`);
    owner = await connectClient(running.url, 'legacy', { headers: { authorization: `Bearer ${token}` } });
    // Another site (`localhost` is another site than `127.0.0.1`) with a form aimed at the button.
    attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><form method="post" action="${origin}/pins/approve">
<input name="server" value="dict"><input name="name" value="lookup"><input name="csrf" value="guessed">
<button id="go" type="submit">go</button></form>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    if (attacker !== undefined) await new Promise((resolve) => attacker.close(resolve));
    await running?.close();
    await oidc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A browser of its own for `user`: the provider's login signs them in (a login names no user). */
  async function as(user: string): Promise<BrowserContext> {
    oidc.signInWithoutHint(user);
    return browser.newContext();
  }

  it('lets the owner approve after logging in; gives a non-owner no button; refuses a form from another site', async () => {
    await owner.callTool({ name: 'dict__shift', arguments: { change: 'parameter' } });
    await expect
      .poll(() => toolNames(owner), { message: 'lookup is quarantined', timeout: 15_000 })
      .not.toContain('dict__lookup');
    const bob = await as('bob');
    const bobsPage = await bob.newPage();
    await bobsPage.goto(`${origin}/`);
    expect(bobsPage.url()).toBe(`${origin}/`);
    expect(await bobsPage.locator('h1').textContent()).toBe('mcptools gateway');
    expect(await bobsPage.locator('form').count()).toBe(0);

    const alice = await as('alice');
    // Alice signs in first, then visits the other site, whose form posts to the gateway.
    const page = await alice.newPage();
    await page.goto(`${origin}/`);
    expect(page.url()).toBe(`${origin}/`);
    const button = page.locator('#quarantined form.approve button');
    expect(await button.count()).toBe(1);
    const { port } = attacker.address() as AddressInfo;
    const elsewhere = await alice.newPage();
    await elsewhere.goto(`http://localhost:${port}/`);
    const [refused] = await Promise.all([elsewhere.waitForNavigation(), elsewhere.click('#go')]);
    expect(refused?.status()).toBe(403);
    expect(await toolNames(owner)).not.toContain('dict__lookup');

    // The owner's own button: approved, back on the page, and the tool served again.
    const [approved] = await Promise.all([page.waitForNavigation(), button.click()]);
    expect(approved?.url()).toBe(`${origin}/`);
    expect(await page.locator('#quarantined').count()).toBe(0);
    await expect
      .poll(() => toolNames(owner), { message: 'lookup approved', timeout: 15_000 })
      .toContain('dict__lookup');
    await Promise.all([alice.close(), bob.close()]);
  }, 90_000);
});
