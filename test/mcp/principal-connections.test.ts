import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackRedirects } from '../../src/auth/callback-redirects.js';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { HttpServerConfig } from '../../src/config/config-types.js';
import { SecretRedactor } from '../../src/config/secret-redactor.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHubImpl } from '../../src/mcp/mcp-tool-hub.js';
import { PrincipalConnections } from '../../src/mcp/principal-connections.js';
import { reconnectPolicy } from '../../src/mcp/reconnect-policy.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
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
    const refused = await failure(pool.connection('notes', config, { principal: 'p1', owner: false }));
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

    const first = await pool.connection('notes', config, { principal: 'p1', owner: false });
    expect(first.client).toBeDefined();
    expect(await pool.connection('notes', config, { principal: 'p1', owner: false })).toBe(first);
    // Closed once idle for `idleMs` (polled: a loaded machine fires timers late).
    for (let attempt = 0; attempt < 200 && first.client !== undefined; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(first.client).toBeUndefined();
    const again = await pool.connection('notes', config, { principal: 'p1', owner: false });
    expect(again).not.toBe(first);
    expect(again.client).toBeDefined();

    // Another principal is not let in on p1's sign-in.
    const other = await failure(pool.connection('notes', config, { principal: 'p2', owner: false }));
    expect(other?.message).toMatch(/needs you to sign in/);
    expect(new URL(String(other?.data?.url)).searchParams.get('state')).not.toBe(
      authorize.searchParams.get('state'),
    );
  }, 30_000);
});

/** Request options naming `principal` as the caller (`stdio`: the operator's own client). */
const callerOptions = (principal: string | undefined) =>
  principal === undefined
    ? {}
    : {
        context: {
          toolCallId: '',
          caller:
            principal === 'stdio'
              ? { principal, owner: true, via: 'stdio' as const }
              : { principal, owner: false },
        },
      };

describe('a hub serving per caller', () => {
  it("serves a per-user server's lists, templates, prompts, completions and reads per caller, never over the shared connection", async () => {
    const hub = (await loadMcpServers({ servers: { notes: config } }, new ToolRegistry(), {
      tokenStore: new MemoryTokenStore(),
      eraCache: false,
      // The operator signed the shared connection in: it is connected, with their access.
      onAuthorizationUrl: (url) => followAuthorizationUrl(url),
    })) as McpToolHubImpl;
    expect(hub.status('notes')?.state).toBe('connected');
    const stop = hub.servePerCaller({
      caller: (context) => {
        const caller = context?.caller;
        return caller?.via === 'stdio' ? 'operator' : caller;
      },
      redirect: redirects.receiver,
    });
    const completion = {
      ref: { type: 'ref/prompt' as const, name: 'draft' },
      argument: { name: 'topic', value: '' },
    };
    try {
      // The operator's own client (stdio) keeps the shared connection: the operator's account.
      const operator = callerOptions('stdio');
      expect((await hub.resources.listAll(operator)).items.map((item) => item.uri)).toEqual([
        'notes://operator/inbox',
      ]);

      // p3 never signed in: none of the operator's account, whatever the method.
      const p3 = callerOptions('p3');
      const read = await failure(hub.resources.read('notes', 'notes://operator/inbox', p3));
      expect(read?.message).toMatch(/needs you to sign in/);
      expect((await failure(hub.prompts.get('notes', 'draft', undefined, p3)))?.message).toMatch(
        /needs you to sign in/,
      );
      for (const listing of [
        await hub.resources.listAll(p3),
        await hub.resources.listAllTemplates(p3),
        await hub.prompts.listAll(p3),
      ]) {
        expect(listing.items).toEqual([]);
        expect(listing.errors.map((error) => error.server)).toEqual(['notes']);
      }
      expect(await hub.resources.list('notes', p3)).toEqual([]);
      expect(await hub.prompts.list('notes', p3)).toEqual([]);
      expect(await failure(hub.prompts.complete!('notes', completion, p3))).toBeInstanceOf(Error);
      expect(await failure(hub.resources.subscribe!('notes', 'notes://operator/inbox', p3))).toBeInstanceOf(
        Error,
      );
      // A request that names no caller is refused such a server too (never the shared connection).
      const anonymous = await hub.resources.listAll();
      expect(anonymous.items).toEqual([]);
      expect(anonymous.errors[0]?.error.message).toMatch(/names no caller/);

      // p4 signs in: their own account, through their own connection.
      const p4 = callerOptions('p4');
      const start = await hub.authorize('notes', p4);
      const authorize = new URL(String(start.url));
      authorize.searchParams.set('login_hint', 'p4');
      const location = (await fetch(authorize, { redirect: 'manual' })).headers.get('location')!;
      // The flow is p4's: the page asks for the caller's token, and p4's completes it.
      expect(redirects.answer(new URL(location)).status).toBe(200);
      const form = new URL(location).searchParams;
      form.set('token', 'the-token-of-p4');
      const callerOf = async (token: string) => (token === 'the-token-of-p4' ? 'p4' : undefined);
      expect((await redirects.confirm(form, callerOf)).status).toBe(200);
      await expect
        .poll(async () => (await hub.resources.listAll(p4)).items.map((item) => item.uri), {
          message: "p4's own inbox, once signed in",
          timeout: 10_000,
        })
        .toEqual(['notes://p4/inbox']);
      expect((await hub.resources.listAllTemplates(p4)).items.map((item) => item.uriTemplate)).toEqual([
        'notes://{account}/inbox',
      ]);
      expect((await hub.prompts.listAll(p4)).items.map((item) => item.name)).toEqual(['draft']);
      expect((await hub.prompts.complete!('notes', completion, p4)).values).toEqual(['p4-draft']);
      expect((await hub.resources.read('notes', 'notes://p4/inbox', p4))[0]?.text).toBe('mail of p4');
      const draft = await hub.prompts.get('notes', 'draft', undefined, p4);
      expect(draft.messages[0]?.content).toEqual({ type: 'text', text: 'draft as p4' });
      // Updates of a per-caller server come from nobody's shared connection: not served.
      expect(await failure(hub.resources.subscribe!('notes', 'notes://p4/inbox', p4))).toBeInstanceOf(Error);
      expect(fixture.state.subscribed).toEqual([]);
      // The operator still gets the operator's account.
      expect((await hub.resources.listAll(operator)).items.map((item) => item.uri)).toEqual([
        'notes://operator/inbox',
      ]);
    } finally {
      await stop();
      await hub.close();
    }
  }, 30_000);
});
