import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackRedirects } from '../../src/auth/callback-redirects.js';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { HttpServerConfig } from '../../src/config/config-types.js';
import { SecretRedactor } from '../../src/config/secret-redactor.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { loadMCPServers } from '../../src/mcp/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/mcp-tool-hub.js';
import { PrincipalConnections } from '../../src/mcp/principal-connections.js';
import { reconnectPolicy } from '../../src/mcp/reconnect-policy.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import {
  followAuthorizationUrl,
  type OAuthFixture,
  startOAuthFixture,
} from '../fixtures/oauth/oauth-fixture.js';

/*
 * Each principal's own connection to a per-user server (the OAuth fixture): opened at their first
 * call once they signed in, listed once, closed after `idleMs` without a call and opened afresh
 * at the next; a principal who has not signed in gets a sign-in error with a URL of their own.
 */

let fixture: OAuthFixture;
const redirects = new CallbackRedirects(() => 'http://127.0.0.1:9/oauth/callback');
const listed: string[] = [];
let pool: PrincipalConnections;
let config: HttpServerConfig;

beforeAll(async () => {
  fixture = await startOAuthFixture({ canary: 'pool-canary' });
  config = { type: 'streamable-http', url: fixture.mcpUrl, auth: { type: 'oauth', perUser: true } };
  pool = new PrincipalConnections({
    connectionOptions: {
      clientInfo: { name: 'test', version: '1.0.0' },
      reconnect: reconnectPolicy(),
      requests: {},
      redactor: new SecretRedactor([]),
      listeners: {
        connected: () => undefined,
        toolsChanged: () => undefined,
        stateChanged: () => undefined,
        warning: () => undefined,
        notification: () => undefined,
        wantsNotifications: () => false,
      },
    },
    connectTimeoutMs: () => 20_000,
    store: new MemoryTokenStore(),
    redirect: redirects.receiver,
    idleMs: 1000,
    listed: (connection) => listed.push(connection.name),
    warn: () => undefined,
    routeOf: () => undefined,
  });
}, 30_000);

afterAll(async () => {
  await pool?.close();
  await fixture?.close();
});

/** The error `work` rejects with. */
const failure = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error as McpToolsError,
  );

describe('PrincipalConnections', () => {
  it('opens a signed-in principal’s connection, closes it when idle and opens it again', async () => {
    const refused = await failure(pool.connection('notes', config, { principal: 'p1' }));
    expect(McpToolsError.isInstance(refused)).toBe(true);
    expect(refused?.data?.url).toMatch(/\/authorize\?/);
    // The person signs in; the redirect is answered by the gateway's callback endpoint.
    const authorize = new URL(String(refused?.data?.url));
    authorize.searchParams.set('login_hint', 'p1');
    const location = (await fetch(authorize, { redirect: 'manual' })).headers.get('location')!;
    // The flow is p1's: the page asks for the caller's token, and p1's completes it.
    expect(redirects.answer(new URL(location)).status).toBe(200);
    const form = new URL(location).searchParams;
    form.set('token', 'the-token-of-p1');
    const callerOf = async (token: string) => (token === 'the-token-of-p1' ? 'p1' : undefined);
    expect((await redirects.confirm(form, callerOf)).status).toBe(200);
    for (let attempt = 0; attempt < 250 && listed.length === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listed).toEqual(['notes']);

    const first = await pool.connection('notes', config, { principal: 'p1' });
    expect(first.client).toBeDefined();
    expect(await pool.connection('notes', config, { principal: 'p1' })).toBe(first);
    // Closed once idle for `idleMs` (polled: a loaded machine fires timers late).
    for (let attempt = 0; attempt < 200 && first.client !== undefined; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(first.client).toBeUndefined();
    const again = await pool.connection('notes', config, { principal: 'p1' });
    expect(again).not.toBe(first);
    expect(again.client).toBeDefined();

    // Another principal is not let in on p1's sign-in.
    const other = await failure(pool.connection('notes', config, { principal: 'p2' }));
    expect(other?.message).toMatch(/needs you to sign in/);
    expect(new URL(String(other?.data?.url)).searchParams.get('state')).not.toBe(
      authorize.searchParams.get('state'),
    );
  }, 30_000);
});

describe('a hub serving per caller', () => {
  it("never serves a per-user server's resources or prompts to a caller through the shared connection", async () => {
    let principal: string | undefined = 'p3';
    const hub = (await loadMCPServers({ servers: { notes: config } }, new ToolRegistry(), {
      tokenStore: new MemoryTokenStore(),
      eraCache: false,
      // The operator signed the shared connection in: it is connected, with their access.
      onAuthorizationUrl: (url) => followAuthorizationUrl(url),
    })) as McpToolHub;
    expect(hub.status('notes')?.state).toBe('connected');
    const stop = hub.servePerCaller({
      caller: () => (principal === undefined ? undefined : { principal }),
      redirect: redirects.receiver,
    });
    try {
      const read = await failure(hub.resources.read('notes', 'notes://x'));
      expect(read?.message).toMatch(
        /uses each caller's own credentials: its resources and prompts are not served/,
      );
      const prompt = await failure(hub.prompts.get('notes', 'any'));
      expect(prompt?.message).toMatch(/its resources and prompts are not served/);
      const all = await hub.resources.listAll();
      expect(all.errors.map((error) => error.server)).toEqual(['notes']);
      // No caller (stdio, the library): the shared connection answers as before.
      principal = undefined;
      expect((await hub.resources.listAll()).errors).toEqual([]);
    } finally {
      await stop();
      await hub.close();
    }
  }, 30_000);
});
