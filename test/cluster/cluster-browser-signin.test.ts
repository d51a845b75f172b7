import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveClusterKeys } from '../../src/cluster/cluster-key.js';
import { connectRedis, type RedisConnection } from '../../src/cluster/redis-connection.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { RedisTokenStore } from '../../src/cluster/redis-token-store.js';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type OAuthFixture, startOAuthFixture } from '../fixtures/oauth/oauth-fixture.js';
import { CookieBrowser } from '../fixtures/oidc/cookie-browser.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { connectClient, toolNames } from '../gateway/gateway-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { type Balancer, freePort, redisAvailable, startBalancer } from './cluster-harness.js';

/*
 * A per-user sign-in bound to its starter by the browser login, across two replicas: Bob's link
 * is made on replica A (which holds the upstream flow's PKCE verifier), his browser logs in
 * through the balancer on A, and the upstream's redirect reaches replica B. B checks the
 * browser's session and flow cookie (sealed with the cluster key, so B opens what A sealed) and
 * hands the redirect to A over the control channel; Bob's calls then run as him on both
 * replicas (the shared vault). The redirect replayed on A is refused: its nonce was used in Redis.
 * Two library gateways in this process, one real redis-server, a real OpenID provider.
 */

const LOGIN_SECRET = 'gateway-login-secret-0123456789';
const bench = useClusterBench();
const key = bench.keyBytes;
let oidc: OidcFixture;
let notes: OAuthFixture;
let balancer: Balancer;
const bases = [{ base: '' }, { base: '' }];
const running: { gateway: Gateway; provider: McpToolHub; url: string }[] = [];
const connections: RedisConnection[] = [];

async function replica(name: string, audience: string) {
  const config = {
    servers: {
      notes: {
        type: 'streamable-http' as const,
        url: notes.mcpUrl,
        auth: { type: 'oauth' as const, perUser: true },
      },
    },
    gateway: {
      auth: {
        type: 'oauth' as const,
        issuer: oidc.issuer,
        audience,
        login: { clientId: 'gateway-login', clientSecret: LOGIN_SECRET },
      },
    },
  };
  const connection = await connectRedis(bench.redis.url, () => {});
  connections.push(connection);
  const derived = deriveClusterKeys(key);
  const registry = new ToolRegistry();
  const provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    tokenStore: new RedisTokenStore(
      connection,
      new RedisKeys(derived.namespace, derived.names),
      derived.storage,
    ),
    reconnect: { enabled: false },
    connectTimeoutMs: 50_000,
  });
  const port = await freePort();
  const gateway = createGateway({
    registry,
    provider,
    config,
    cluster: { redis: bench.redis.url, key, advertiseUrl: `http://127.0.0.1:${port}`, replicaId: name },
  });
  const { url } = await gateway.listen({ port });
  const entry = { gateway, provider, url };
  running.push(entry);
  return entry;
}

async function text(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  return `${result.isError ? 'error: ' : ''}${(result.content ?? []).map((block) => block.text ?? '').join('')}`;
}

describe.skipIf(!redisAvailable)(
  'a browser-bound sign-in across replicas (real Redis, real OpenID provider)',
  () => {
    beforeAll(async () => {
      // Before Redis stops: the gateways, their connections, the balancer, the providers.
      bench.onClose(async () => {
        for (const { gateway, provider } of running) {
          await gateway.close();
          await provider.close();
        }
        for (const connection of connections) await connection.close();
        await balancer?.close();
        await Promise.all([oidc?.close(), notes?.close()]);
      });
      // The balancer first: its URL is the gateway's public one (the audience, and every redirect's origin).
      balancer = await startBalancer(bases);
      const origin = new URL(balancer.url).origin;
      oidc = await startOidcProvider({
        jwtResources: [balancer.url],
        users: { alice: { groups: [] }, bob: { groups: [] } },
        clients: { 'app-a': 'app-a-secret-0123456789', 'gateway-login': LOGIN_SECRET },
        redirectUris: ['http://127.0.0.1/callback', `${origin}/oauth/login`],
      });
      notes = await startOAuthFixture({ canary: 'notes-canary' });
      const [a, b] = [await replica('a', balancer.url), await replica('b', balancer.url)];
      bases[0]!.base = new URL(a.url).origin;
      bases[1]!.base = new URL(b.url).origin;
    }, 120_000);

    it('completes on replica B a flow started on replica A, for its starter only; a replay on A is refused', async () => {
      const [a, b] = running as [(typeof running)[0], (typeof running)[0]];
      const token = await oidc.userToken('bob', 'app-a', balancer.url);
      const onA = await connectClient(a.url, 'modern', { headers: { authorization: `Bearer ${token}` } });
      try {
        const answer = await text(onA, 'mcp_auth', { server: 'notes' });
        const link = new URL(/https?:\/\/[^\s"',)]+\/oauth\/signin\?flow=[^\s"',)]+/.exec(answer)![0]);
        expect(link.origin).toBe(new URL(balancer.url).origin);

        // Alice's browser, all on B: logged in as herself, refused; Bob's flow goes on.
        let target = 1;
        balancer.route = () => target;
        const alice = new CookieBrowser('alice');
        const refused = await alice.open(link);
        expect(refused.response?.status).toBe(403);
        await refused.response?.text();

        // Bob's browser: the link and the login on A, the upstream's redirect on B.
        const bob = new CookieBrowser('bob');
        const routed: Record<string, number> = {};
        const done = await bob.open(link, {
          before: (url) => {
            if (url.origin !== new URL(balancer.url).origin) return;
            target = url.pathname === '/oauth/callback' ? 1 : 0;
            routed[url.pathname] = target;
          },
        });
        expect(routed).toEqual({ '/oauth/signin': 0, '/oauth/login': 0, '/oauth/callback': 1 });
        expect([new URL(done.url).pathname, done.response?.status]).toEqual(['/oauth/callback', 200]);
        await done.response?.text();

        // A completed the flow it held; both replicas serve Bob as Bob (the shared vault).
        await expect
          .poll(async () => text(onA, 'mcp_auth', { server: 'notes' }), {
            message: 'Bob signed in on A',
            timeout: 20_000,
          })
          .toContain('authorized');
        await expect
          .poll(async () => toolNames(onA), { message: 'the catalog of notes on A', timeout: 20_000 })
          .toContain('notes__whoami');
        expect(await text(onA, 'notes__whoami')).toMatch(/user bob$/);
        // On B, Bob's next token (its first request there opens his connection) finds his tokens.
        const later = await oidc.userToken('bob', 'app-a', balancer.url);
        const laterOnB = await connectClient(b.url, 'modern', {
          headers: { authorization: `Bearer ${later}` },
        });
        try {
          await expect
            .poll(async () => toolNames(laterOnB), { message: 'the catalog of notes on B', timeout: 20_000 })
            .toContain('notes__whoami');
          expect(await text(laterOnB, 'notes__whoami')).toMatch(/user bob$/);
        } finally {
          await laterOnB.close();
        }

        // The same redirect, with the cookies it came with, replayed on A: its nonce is used (Redis).
        const callback = bob.history.at(-1)!;
        target = 0;
        const replayed = await fetch(callback.url, {
          headers: { cookie: callback.cookie },
          redirect: 'manual',
        });
        expect(replayed.status).toBe(403);
        await replayed.text();
      } finally {
        await onA.close();
      }
    }, 120_000);
  },
);
