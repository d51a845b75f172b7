import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackRedirects } from '../../src/auth/callback-redirects.js';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { HttpServerConfig } from '../../src/config/config-types.js';
import { SecretRedactor } from '../../src/config/secret-redactor.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { PrincipalConnections } from '../../src/mcp/principal-connections.js';
import { reconnectPolicy } from '../../src/mcp/reconnect-policy.js';
import { type OAuthFixture, startOAuthFixture } from '../fixtures/oauth/oauth-fixture.js';

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
    expect(redirects.answer(new URL(location)).status).toBe(200);
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
