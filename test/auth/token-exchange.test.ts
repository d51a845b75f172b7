import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenExchange } from '../../src/auth/token-exchange.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';

/* RFC 8693 token exchange against a real OpenID provider (oidc-provider, its grant registered by the fixture). */

const GATEWAY = 'http://127.0.0.1:1/mcp';
const UPSTREAM = 'http://127.0.0.1:2/mcp';
const SECRET = 'gateway-secret-0123456789';
let oidc: OidcFixture;
let aliceToken: string;

beforeAll(async () => {
  oidc = await startOidcProvider({
    jwtResources: [GATEWAY, UPSTREAM],
    users: { alice: { groups: ['ops'] } },
    clients: { app: 'app-secret-0123456789', gateway: SECRET },
  });
  aliceToken = await oidc.userToken('alice', 'app', GATEWAY);
}, 60_000);

afterAll(() => oidc?.close());

const exchange = (overrides: Record<string, string> = {}) =>
  new TokenExchange('reports', {
    type: 'tokenExchange',
    issuer: oidc.issuer,
    clientId: 'gateway',
    clientSecret: SECRET,
    audience: UPSTREAM,
    ...overrides,
  });

describe('TokenExchange', () => {
  it("trades the caller's token for one of the upstream's audience and the caller's subject, kept for its lifetime", async () => {
    const exchanger = exchange();
    const before = oidc.counts.tokenExchange;
    const token = await exchanger.token(aliceToken);
    const claims = decodeJwt(token);
    expect(claims.aud).toBe(UPSTREAM);
    expect(claims.sub).toBe('alice');
    expect(claims.iss).toBe(oidc.issuer);
    expect(token).not.toBe(aliceToken);
    expect(await exchanger.token(aliceToken)).toBe(token);
    expect(oidc.counts.tokenExchange).toBe(before + 1);
    // Forgotten (the upstream refused it): exchanged again.
    exchanger.forget(aliceToken);
    await exchanger.token(aliceToken);
    expect(oidc.counts.tokenExchange).toBe(before + 2);
  });

  it('reports a refusal by its error code only, with no token or secret in it', async () => {
    const wrongSecret = exchange({ clientSecret: 'not-the-secret-0123456789' });
    const error = await wrongSecret.token(aliceToken).catch((caught: unknown) => caught);
    expect(McpToolsError.isInstance(error)).toBe(true);
    expect((error as McpToolsError).code).toBe('PERMISSION_DENIED');
    expect((error as Error).message).toMatch(
      /^server "reports": the token exchange was refused \(HTTP 401, invalid_client\)$/,
    );
    const forged = await exchange()
      .token(`${aliceToken.slice(0, -4)}AAAA`)
      .catch((caught: Error) => caught.message);
    expect(forged).toMatch(/refused \(HTTP 400, invalid_grant\)/);
    expect(forged).not.toContain(aliceToken.slice(0, 20));
  });

  it('needs a token endpoint or an issuer', () => {
    expect(
      () =>
        new TokenExchange('reports', {
          type: 'tokenExchange',
          clientId: 'gateway',
          clientSecret: SECRET,
          audience: UPSTREAM,
        }),
    ).toThrow(/tokenExchange needs tokenEndpoint or issuer/);
  });
});
