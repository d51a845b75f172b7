import { importJWK, type JWK, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { GatewayOAuthConfig } from '../../src/config/gateway-auth-types.js';
import { GatewayOAuth } from '../../src/gateway/auth/gateway-oauth.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { Tool } from '../../src/tool/tool.js';
import {
  followWithCookies,
  newSigningKey,
  type OidcFixture,
  startOidcProvider,
} from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { initializeRequest } from '../helpers/initialize-request.js';
import { waitUntil } from '../helpers/wait-until.js';
import { connectClient, toolNames } from './gateway-test-helpers.js';
import { inspect } from './inspector-cli-process.js';

/*
 * The gateway as an OAuth 2.1 resource server, against a real OpenID provider (oidc-provider on
 * loopback): RFC 9728 metadata, the 401 challenge, JWT access tokens checked for signature,
 * issuer, audience and lifetime, key rotation, introspection of opaque tokens, sessions bound
 * to the principal, and the SDK client's own OAuth support finding its way in by discovery.
 */

const STATIC = 'static-ci-token-0123456789';
const users = { alice: { groups: ['ops'] }, bob: { groups: ['dev'] } };
const clients = {
  'app-a': 'app-a-secret-0123456789',
  'app-b': 'app-b-secret-0123456789',
  gateway: 'gateway-secret-0123456789',
};

const whoami: Tool = {
  name: 'hello',
  description: 'Says hello',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ content: [{ type: 'text', text: 'hello' }] }),
};

interface Running {
  gateway: Gateway;
  provider: McpToolHub;
  url: string;
}

async function startGateway(port: number, auth: GatewayOAuthConfig): Promise<Running> {
  const registry = new ToolRegistry();
  registry.register(whoami);
  const provider = await loadMcpServers({ servers: {} }, registry);
  const gateway = createGateway({
    registry,
    provider,
    config: { servers: {}, gateway: { auth, tokens: { ci: { token: STATIC } } } },
  });
  const { url } = await gateway.listen({ host: '127.0.0.1', port });
  return { gateway, provider, url };
}

let oidc: OidcFixture;
let main: Running;
let introspecting: Running;
let audience: string;
let opaqueAudience: string;
let otherAudience: string;
let signingKey: JWK;

beforeAll(async () => {
  const [port, opaquePort] = [await freePort(), await freePort()];
  audience = `http://127.0.0.1:${port}/mcp`;
  opaqueAudience = `http://127.0.0.1:${opaquePort}/mcp`;
  otherAudience = 'http://127.0.0.1:1/another-resource';
  oidc = await startOidcProvider({
    jwtResources: [audience, otherAudience],
    opaqueResources: [opaqueAudience],
    users,
    clients,
  });
  signingKey = oidc.keys[0]!;
  main = await startGateway(port, {
    type: 'oauth',
    issuer: oidc.issuer,
    audience,
    requiredScopes: ['mcp'],
    scopesSupported: ['mcp', 'tools:read'],
    jwksCooldownSeconds: 0,
  });
  introspecting = await startGateway(opaquePort, {
    type: 'oauth',
    issuer: oidc.issuer,
    audience: opaqueAudience,
    introspection: { clientId: 'gateway', clientSecret: clients.gateway },
  });
}, 60_000);

afterAll(async () => {
  for (const running of [main, introspecting]) {
    await running?.gateway.close();
    await running?.provider.close();
  }
  await oidc?.close();
});

const initialize = JSON.stringify(initializeRequest());

function post(
  url: string,
  token: string | undefined,
  headers: Record<string, string> = {},
  body = initialize,
) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body,
  });
}

/** A token signed with `key` (the provider's own key unless told), with the claims of a good one changed by `changes`. */
async function craft(
  changes: Record<string, unknown> = {},
  key: JWK = signingKey,
  kid = key.kid,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: 'alice',
    client_id: 'app-a',
    scope: 'mcp tools:read',
    iss: oidc.issuer,
    aud: audience,
    iat: now,
    exp: now + 300,
    ...changes,
  };
  for (const [name, value] of Object.entries(claims))
    if (value === undefined) delete claims[name as keyof typeof claims];
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', ...(kid === undefined ? {} : { kid }) })
    .sign(await importJWK(key, 'ES256'));
}

describe('the gateway as an OAuth resource server', () => {
  it('serves its protected-resource metadata at the well-known URL and its path-suffixed form', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const response = await fetch(new URL(path, main.url));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: audience,
        authorization_servers: [oidc.issuer],
        scopes_supported: ['mcp', 'tools:read'],
      });
    }
  });

  it('answers a request without a token with 401 and a challenge naming the metadata', async () => {
    const response = await post(main.url, undefined);
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="http://127.0.0.1:${new URL(audience).port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('lets in a user whose provider-issued JWT names this gateway, both eras', async () => {
    const token = await oidc.userToken('alice', 'app-a', audience);
    for (const era of ['modern', 'legacy'] as const) {
      const client = await connectClient(main.url, era, { headers: { authorization: `Bearer ${token}` } });
      expect(await toolNames(client)).toContain('hello');
      await client.close();
    }
  });

  it('keeps static named tokens working beside OAuth', async () => {
    const client = await connectClient(main.url, 'legacy', {
      headers: { authorization: `Bearer ${STATIC}` },
    });
    expect(await toolNames(client)).toContain('hello');
    await client.close();
  });

  it('refuses each bad token with 401 and the same answer, saying nothing about what was wrong', async () => {
    const stranger = await newSigningKey(signingKey.kid!);
    const now = Math.floor(Date.now() / 1000);
    const bad: Record<string, string> = {
      expired: await craft({ iat: now - 7200, exp: now - 3600 }),
      'not yet valid': await craft({ nbf: now + 3600 }),
      'wrong audience': await craft({ aud: 'http://127.0.0.1:1/elsewhere' }),
      'wrong issuer': await craft({ iss: 'http://127.0.0.1:1' }),
      'no expiry': await craft({ exp: undefined }),
      'bad signature': await craft({}, stranger),
      'unknown kid': await craft({}, await newSigningKey('never-published')),
      'alg none': new UnsecuredJWT({
        sub: 'alice',
        iss: oidc.issuer,
        aud: audience,
        scope: 'mcp',
        exp: now + 300,
      }).encode(),
      'another resource': await oidc.userToken('alice', 'app-a', otherAudience),
      'an opaque token': await oidc.userToken('alice', 'app-a', opaqueAudience),
      garbage: 'not-a-token',
    };
    const answers = new Set<string>();
    for (const [name, token] of Object.entries(bad)) {
      const response = await post(main.url, token);
      const body = await response.text();
      expect([name, response.status]).toEqual([name, 401]);
      expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
      answers.add(body);
    }
    expect([...answers]).toEqual([
      JSON.stringify({ error: 'invalid_token', error_description: 'The access token is not valid' }),
    ]);
  });

  it('answers 403 insufficient_scope, naming the scope, to a token without a required one', async () => {
    const token = await oidc.clientCredentials('app-b', audience, 'tools:read');
    const response = await post(main.url, token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="mcp"/);
  });

  it('binds a 2025 session to its user: the session id with another user’s token is not found', async () => {
    const alice = await oidc.userToken('alice', 'app-a', audience);
    const bob = await oidc.userToken('bob', 'app-b', audience);
    const opened = await post(main.url, alice);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const stolen = await post(
      main.url,
      bob,
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      list,
    );
    expect(stolen.status).toBe(404);
    const own = await post(
      main.url,
      alice,
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      list,
    );
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('hello');
  });

  it('refetches the keys when a token names an unknown kid after a rotation, then accepts it', async () => {
    const before = await oidc.userToken('alice', 'app-a', audience);
    expect((await post(main.url, before)).status).toBe(200);
    const fetchesBefore = oidc.counts.jwks;
    // The provider signs with a new key from now on; the old one stays published.
    oidc.rotateKeys([await newSigningKey('key-2'), signingKey]);
    const after = await oidc.userToken('bob', 'app-b', audience);
    expect(JSON.parse(Buffer.from(after.split('.')[0]!, 'base64url').toString()).kid).toBe('key-2');
    expect((await post(main.url, after)).status).toBe(200);
    // The gateway fetched the keys again (once) for the new kid.
    expect(fetchesBefore).toBeGreaterThan(0);
    expect(oidc.counts.jwks).toBe(fetchesBefore + 1);
    // The token signed before the rotation is still good: its key is still published.
    expect((await post(main.url, before)).status).toBe(200);
  });
});

describe('the verified-token cache', () => {
  it('serves a known caller only until its token expires', async () => {
    const door = new GatewayOAuth({ type: 'oauth', issuer: oidc.issuer, audience, clockToleranceSeconds: 0 });
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = await craft({ exp });
    const first = await door.authenticate(`Bearer ${token}`, main.url);
    expect(first).toMatchObject({ principal: 'oauth:alice', via: 'oauth', clientId: 'app-a' });
    // Known now: answered without verifying again (no promise).
    expect(door.authenticate(`Bearer ${token}`, main.url)).toBe(first);
    // Past its expiry (whole seconds, no clock tolerance): the cached caller must not be served.
    await waitUntil(() => Date.now() > exp * 1000, 'until the token has expired', 5_000);
    const late = await door.authenticate(`Bearer ${token}`, main.url);
    expect(late instanceof Response && late.status).toBe(401);
  });
});

describe('introspection of opaque tokens (RFC 7662)', () => {
  it('accepts an active opaque token, asking the provider once for a steady stream of requests', async () => {
    const token = await oidc.userToken('alice', 'app-a', opaqueAudience);
    const before = oidc.counts.introspection;
    for (let index = 0; index < 5; index++) {
      const response = await post(introspecting.url, token);
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(oidc.counts.introspection - before).toBe(1);
  });

  it('refuses a token the provider says is inactive, and one introspection says is for another resource', async () => {
    const unknown = await post(introspecting.url, 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg');
    expect(unknown.status).toBe(401);
    const elsewhere = await post(introspecting.url, await oidc.userToken('alice', 'app-a', audience));
    expect(elsewhere.status).toBe(401);
  });
});

describe('the MCP Inspector CLI (no OAuth support of its own: it sends the header it is given)', () => {
  it('lists the tools with a provider-issued token, and is refused without one', async () => {
    const token = await oidc.userToken('bob', 'app-b', audience);
    const listed = (await inspect(
      [main.url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`],
      ['--method', 'tools/list'],
    )) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('hello');
    await expect(inspect([main.url, '--transport', 'http'], ['--method', 'tools/list'])).rejects.toThrow(
      /invalid_token/,
    );
  });
});

describe('the SDK client’s own OAuth support', () => {
  it('finds the provider from the 401 alone, signs in as the user and lists the tools', async () => {
    const registry = new ToolRegistry();
    const urls: string[] = [];
    const client = await loadMcpServers(
      { servers: { team: { type: 'streamable-http', url: main.url } } },
      registry,
      {
        connectTimeoutMs: 20_000,
        reconnect: { enabled: false },
        tokenStore: new MemoryTokenStore(),
        onAuthorizationUrl: async (url) => {
          urls.push(`${url.origin}${url.pathname}`);
          url.searchParams.set('login_hint', 'alice');
          const callback = await followWithCookies(url, oidc.issuer);
          await (await fetch(callback)).text();
        },
      },
    );
    try {
      expect([client.status('team')?.state, client.status('team')?.lastError?.message]).toEqual([
        'connected',
        undefined,
      ]);
      expect(urls).toEqual([`${oidc.issuer}/auth`]);
      expect((await registry.resolveAll()).map((tool) => tool.name)).toContain('team__hello');
    } finally {
      await client.close();
    }
  });
});
