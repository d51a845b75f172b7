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
 * Caches that forget, against a real OpenID provider (oidc-provider on loopback): a token revoked
 * at the provider is refused once the gateway's configured cache time has passed; a JWT is asked
 * about at the provider only with the opt-in `introspection.jwts`; a flood of junk tokens costs the provider at
 * most the configured number of introspections in flight, and a repeated junk token one.
 */

const clients = {
  'app-a': 'app-a-secret-0123456789',
  gateway: 'gateway-secret-0123456789',
};
const MAX_CONCURRENT = 3;

let oidc: OidcFixture;
let provider: McpToolHub;
const running: Gateway[] = [];
let opaqueUrl: string;
let opaqueAudience: string;
let jwtUrl: string;
let jwtAudience: string;
let checkedUrl: string;
let checkedAudience: string;

async function startGateway(port: number, auth: GatewayOAuthConfig): Promise<string> {
  const gateway = createGateway({
    registry: new ToolRegistry(),
    provider,
    config: { servers: {}, gateway: { auth } },
  });
  running.push(gateway);
  return (await gateway.listen({ host: '127.0.0.1', port })).url;
}

beforeAll(async () => {
  const [opaquePort, jwtPort, checkedPort] = [await freePort(), await freePort(), await freePort()];
  opaqueAudience = `http://127.0.0.1:${opaquePort}/mcp`;
  jwtAudience = `http://127.0.0.1:${jwtPort}/mcp`;
  checkedAudience = `http://127.0.0.1:${checkedPort}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [jwtAudience, checkedAudience],
    opaqueResources: [opaqueAudience],
    users: { alice: { groups: [] }, bob: { groups: [] } },
    clients,
    // Long enough for concurrent introspections to overlap at the provider.
    introspectionDelayMs: 50,
  });
  provider = await loadMcpServers({ servers: {} }, new ToolRegistry());
  const introspection = {
    clientId: 'gateway',
    clientSecret: clients.gateway,
    maxConcurrent: MAX_CONCURRENT,
  };
  opaqueUrl = await startGateway(opaquePort, {
    type: 'oauth',
    issuer: oidc.issuer,
    audience: opaqueAudience,
    introspection,
    tokenCacheSeconds: 1,
    failureCacheSeconds: 60,
  });
  jwtUrl = await startGateway(jwtPort, {
    type: 'oauth',
    issuer: oidc.issuer,
    audience: jwtAudience,
    introspection,
    tokenCacheSeconds: 1,
  });
  checkedUrl = await startGateway(checkedPort, {
    type: 'oauth',
    issuer: oidc.issuer,
    audience: checkedAudience,
    introspection: { ...introspection, jwts: true },
    tokenCacheSeconds: 1,
  });
}, 60_000);

afterAll(async () => {
  for (const gateway of running) await gateway.close();
  await provider?.close();
  await oidc?.close();
});

const initialize = JSON.stringify(initializeRequest());

async function status(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: initialize,
  });
  await response.text();
  return response.status;
}

describe('verified tokens are remembered at most tokenCacheSeconds', () => {
  it('refuses an opaque token revoked at the provider once the cache time has passed', async () => {
    const revoked = await oidc.userToken('alice', 'app-a', opaqueAudience);
    const kept = await oidc.userToken('bob', 'app-a', opaqueAudience);
    expect(await status(opaqueUrl, revoked)).toBe(200);
    expect(await status(opaqueUrl, kept)).toBe(200);
    await oidc.revoke(revoked, 'app-a');
    await expect
      .poll(() => status(opaqueUrl, revoked), { message: 'the revoked token refused', timeout: 15_000 })
      .toBe(401);
    // The control: a token nobody revoked is still let in, after its own cache time too.
    expect(await status(opaqueUrl, kept)).toBe(200);
  });

  it('checks a JWT locally by default, and with its issuer only when introspection.jwts asks', async () => {
    const local = await oidc.userToken('alice', 'app-a', jwtAudience);
    expect(local.split('.')).toHaveLength(3);
    const before = oidc.counts.introspection;
    expect(await status(jwtUrl, local)).toBe(200);
    expect(oidc.counts.introspection).toBe(before);
    // Asked at the provider: oidc-provider keeps no record of the JWTs it signs, so its
    // introspection calls one inactive, and that verdict decides.
    const checked = await oidc.userToken('alice', 'app-a', checkedAudience);
    expect(await status(checkedUrl, checked)).toBe(401);
    expect(oidc.counts.introspection).toBe(before + 1);
  });
});

describe('introspection under a flood of junk tokens', () => {
  it('asks about one junk token sent 200 times once, with at most the limit in flight', async () => {
    const junk = 'junk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const before = oidc.counts.introspection;
    oidc.counts.introspectionMaxInFlight = 0;
    const answers = await Promise.all(Array.from({ length: 200 }, () => status(opaqueUrl, junk)));
    expect(new Set(answers)).toEqual(new Set([401]));
    expect(oidc.counts.introspection - before).toBeLessThanOrEqual(MAX_CONCURRENT);
    expect(oidc.counts.introspectionMaxInFlight).toBeLessThanOrEqual(MAX_CONCURRENT);
    // Remembered as refused: sent again, it costs nothing more.
    const after = oidc.counts.introspection;
    expect(await status(opaqueUrl, junk)).toBe(401);
    expect(oidc.counts.introspection).toBe(after);
  });

  it('keeps 200 different junk tokens to the limit in flight, and still lets a good token in', async () => {
    oidc.counts.introspectionMaxInFlight = 0;
    const good = await oidc.userToken('alice', 'app-a', opaqueAudience);
    const answers = await Promise.all([
      ...Array.from({ length: 200 }, (_, index) =>
        status(opaqueUrl, `junk-${index}-AbCdEfGhIjKlMnOpQrStUvWxYz`),
      ),
      status(opaqueUrl, good),
    ]);
    expect(answers.at(-1)).toBe(200);
    expect(new Set(answers.slice(0, -1))).toEqual(new Set([401]));
    expect(oidc.counts.introspectionMaxInFlight).toBeGreaterThan(0);
    expect(oidc.counts.introspectionMaxInFlight).toBeLessThanOrEqual(MAX_CONCURRENT);
  }, 60_000);
});
