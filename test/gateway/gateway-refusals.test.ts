import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayOAuthConfig } from '../../src/config/gateway-auth-types.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { initializeRequest } from '../helpers/initialize-request.js';

/*
 * What the front door tells a caller it does not serve, against a real OpenID provider
 * (oidc-provider on loopback): every refusal of a token is one identical 401 (a missing or
 * malformed header's too); a JWT typed as another kind of token and a refresh token are refused;
 * the status page names only the endpoints that serve the caller. oidc-provider never answers
 * an introspection of a refresh token with an audience, as some servers do, so that answer
 * comes from a small RFC 7662 endpoint written here.
 */

const OPS = 'ops-static-token-0123456789';
const DEV = 'dev-static-token-0123456789';
const ACCESS = 'opaque-access-token-0123456789';
const REFRESH = 'opaque-refresh-token-0123456789';

let oidc: OidcFixture;
let provider: McpToolHub;
let introspection: Server;
const running: Gateway[] = [];
let audience: string;
let main: string;
let opaqueAudience: string;
let opaque: string;

async function startGateway(port: number, auth: GatewayOAuthConfig): Promise<string> {
  const gateway = createGateway({
    registry: new ToolRegistry(),
    provider,
    config: {
      servers: {},
      gateway: {
        auth,
        tokens: {
          ops: { token: OPS, claims: { groups: ['ops'] } },
          dev: { token: DEV, claims: { groups: ['dev'] } },
        },
        profiles: { opsonly: { mode: 'router', who: { claims: { groups: 'ops' } } } },
      },
    },
  });
  running.push(gateway);
  return (await gateway.listen({ host: '127.0.0.1', port })).url;
}

/** RFC 7662 answers: an access token, and a refresh token of the same user naming the audience. */
async function startIntrospection(): Promise<string> {
  introspection = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const token = new URLSearchParams(body).get('token');
      const now = Math.floor(Date.now() / 1000);
      const common = {
        active: true,
        sub: 'alice',
        client_id: 'app-a',
        iss: oidc.issuer,
        aud: opaqueAudience,
      };
      const answer =
        token === ACCESS
          ? { ...common, exp: now + 300, scope: 'mcp', token_type: 'Bearer' }
          : token === REFRESH
            ? {
                ...common,
                exp: now + 86_400,
                scope: 'openid offline_access mcp',
                token_type: 'refresh_token',
              }
            : { active: false };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`;
}

beforeAll(async () => {
  const [port, opaquePort] = [await freePort(), await freePort()];
  audience = `http://127.0.0.1:${port}/mcp`;
  opaqueAudience = `http://127.0.0.1:${opaquePort}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [audience],
    users: { alice: { groups: [] } },
    clients: { 'app-a': 'app-a-secret-0123456789' },
  });
  provider = await loadMcpServers({ servers: {} }, new ToolRegistry());
  main = await startGateway(port, { type: 'oauth', issuer: oidc.issuer, audience });
  opaque = await startGateway(opaquePort, {
    type: 'oauth',
    issuer: oidc.issuer,
    audience: opaqueAudience,
    introspection: {
      url: await startIntrospection(),
      clientId: 'gateway',
      clientSecret: 'gateway-secret-0123',
    },
  });
}, 60_000);

afterAll(async () => {
  for (const gateway of running) await gateway.close();
  await provider?.close();
  await oidc?.close();
  introspection?.closeAllConnections();
  await new Promise((resolve) => introspection?.close(resolve));
});

const initialize = JSON.stringify(initializeRequest());

async function post(url: string, authorization?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: initialize,
  });
  return {
    status: response.status,
    body: await response.text(),
    challenge: response.headers.get('www-authenticate'),
  };
}

/** A JWT signed with the provider's own key, good in every claim, with the header's `typ` as given. */
async function signed(typ: string): Promise<string> {
  const key = oidc.keys[0]!;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    sub: 'alice',
    client_id: 'app-a',
    scope: 'mcp',
    iss: oidc.issuer,
    aud: audience,
    iat: now,
    exp: now + 300,
  })
    .setProtectedHeader({ alg: 'ES256', typ, kid: key.kid })
    .sign(await importJWK(key, 'ES256'));
}

describe('every refusal of a token is the same answer', () => {
  it('gives no token, a malformed header and a bad token one identical 401', async () => {
    const answers = [
      await post(main),
      await post(main, 'Basic YWxpY2U6c2VjcmV0'),
      await post(main, 'Bearer'),
      await post(main, 'Bearer not-a-token'),
      await post(main, `Bearer ${await signed('logout+jwt')}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.challenge)).size).toBe(1);
    expect(JSON.parse(answers[0]!.body)).toEqual({
      error: 'invalid_token',
      error_description: 'The access token is not valid',
    });
    // The control: the provider's own token is let in.
    expect((await post(main, `Bearer ${await oidc.userToken('alice', 'app-a', audience)}`)).status).toBe(200);
  });
});

describe('tokens of another kind', () => {
  it('refuses a JWT whose typ names another kind of token, and lets in at+jwt and JWT', async () => {
    for (const typ of ['dpop+jwt', 'logout+jwt', 'secevent+jwt'])
      expect([typ, (await post(main, `Bearer ${await signed(typ)}`)).status]).toEqual([typ, 401]);
    for (const typ of ['at+jwt', 'application/at+jwt', 'JWT'])
      expect([typ, (await post(main, `Bearer ${await signed(typ)}`)).status]).toEqual([typ, 200]);
  });

  it('refuses a refresh token that introspection says is active for this audience', async () => {
    expect((await post(opaque, `Bearer ${REFRESH}`)).status).toBe(401);
    // The control: the access token of the same user and audience is let in.
    expect((await post(opaque, `Bearer ${ACCESS}`)).status).toBe(200);
  });
});

describe('the status page', () => {
  it('names only the endpoints that serve the caller', async () => {
    const page = async (token: string) => {
      const response = await fetch(new URL('/', main), { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const dev = await page(DEV);
    expect(dev).toContain('<code>/mcp</code>');
    expect(dev).not.toContain('opsonly');
    // The control: a caller the profile serves sees it listed.
    expect(await page(OPS)).toContain('<code>/mcp/opsonly</code>');
  });
});
