import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { connectClient, toolNames } from './gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from './start-serve-http.js';

/*
 * The built CLI's `serve --oauth-issuer --oauth-audience` beside the configuration's named static
 * tokens: metadata, challenge, a provider's token let in, a token bound to its profile, and a
 * token's claims deciding what it sees. Run `npm run build` first.
 */

const CI = 'ci-token-0123456789abcdef';
const OPS = 'ops-token-0123456789abcdef';

let dir: string;
let oidc: OidcFixture;
let served: ServedHttp;
let audience: string;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  audience = `http://127.0.0.1:${port}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [audience],
    users: { alice: { groups: ['ops'] } },
    clients: { 'app-a': 'app-a-secret-0123456789' },
  });
  dir = mkdtempSync(join(tmpdir(), 'mcptools-identity-'));
  const config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {},
      gateway: {
        tokens: {
          ci: { token: CI, profile: 'small' },
          ops: { token: OPS, principal: 'ops-bot', claims: { groups: ['ops'] } },
        },
        access: [{ tools: ['tool_index'], who: { claims: { groups: 'ops' } } }],
        profiles: {
          small: { mode: 'router' },
          opsonly: { mode: 'router', who: { claims: { groups: 'ops' } } },
        },
      },
    }),
  );
  served = await startServeHttp([
    '--config',
    config,
    '--http',
    `127.0.0.1:${port}`,
    '--oauth-issuer',
    oidc.issuer,
    '--oauth-audience',
    audience,
  ]);
}, 90_000);

afterAll(async () => {
  await served?.close();
  await oidc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A 2026-07-28 client's `tools/list` at `path` with `token`: the status (401/404 refusals) and the tool names. */
async function tools(path: string, token?: string): Promise<{ status: number; names: string[] }> {
  try {
    const client = await connectClient(new URL(path, served.url).href, 'modern', {
      ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
    });
    const names = await toolNames(client);
    await client.close();
    return { status: 200, names };
  } catch (error) {
    // The SDK's HTTP error carries the status (401 and 403 come back as its OAuth errors).
    const status =
      (error as { data?: { status?: number } }).data?.status ?? /\b(401|403)\b/.exec(String(error))?.[1];
    if (status === undefined) throw error;
    return { status: Number(status), names: [] };
  }
}

describe('mcptools serve with OAuth and named tokens', () => {
  it('serves the protected-resource metadata naming the issuer and the audience', async () => {
    const metadata = await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', served.url))
    ).json();
    expect(metadata).toMatchObject({ resource: audience, authorization_servers: [oidc.issuer] });
  });

  it('challenges a request without a token, and lets in a provider-issued one', async () => {
    const refused = await tools('/mcp');
    expect(refused.status).toBe(401);
    const token = await oidc.userToken('alice', 'app-a', audience);
    const admitted = await tools('/mcp/small', token);
    expect(admitted).toEqual({ status: 200, names: expect.arrayContaining(['tool_index', 'call_tool']) });
  });

  it('serves a token bound to a profile that profile at /mcp, and no other', async () => {
    expect((await tools('/mcp', CI)).names).toEqual(
      expect.arrayContaining(['call_tool', 'list_mcp_resources']),
    );
    expect((await tools('/mcp/opsonly', CI)).status).toBe(404);
  });

  it('lets a token’s configured claims decide what it sees', async () => {
    // `tool_index` is for ops only: the ci token does not see it, the ops token does.
    expect((await tools('/mcp', CI)).names).not.toContain('tool_index');
    expect((await tools('/mcp/small', OPS)).names).toContain('tool_index');
    expect((await tools('/mcp/opsonly', OPS)).status).toBe(200);
  });
});
