import { randomBytes } from 'node:crypto';
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
import {
  followAuthorizationUrl,
  type OAuthFixture,
  startOAuthFixture,
} from '../fixtures/oauth/oauth-fixture.js';
import { connectClient, toolNames } from '../gateway/gateway-test-helpers.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useClusterBench } from './cluster-fixture.js';
import { freePort, redisAvailable } from './cluster-harness.js';

/*
 * An OAuth sign-in completed on replica B reaches a 2026 listener on replica A
 * (`mcp_auth` gone, the server's tools there), through the shared vault (RedisTokenStore) and the
 * control channel. Two library gateways in this process, each with its own hub, one real Redis,
 * the test's OAuth provider. The control: a replica outside the cluster (its own vault) stays
 * signed out.
 */

const bench = useClusterBench();
const key = bench.keyBytes;
let fixture: OAuthFixture;
const running: { gateway: Gateway; provider: McpToolHub; url: string }[] = [];
const connections: RedisConnection[] = [];

async function replica(name: string, clustered: boolean) {
  const config = { servers: { remote: { type: 'streamable-http' as const, url: fixture.mcpUrl } } };
  const connection = await connectRedis(bench.redis.url, () => {});
  connections.push(connection);
  const derived = deriveClusterKeys(clustered ? key : randomBytes(32));
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
    ...(clustered
      ? {
          cluster: { redis: bench.redis.url, key, advertiseUrl: `http://127.0.0.1:${port}`, replicaId: name },
        }
      : {}),
  });
  const { url } = await gateway.listen({ port });
  const entry = { gateway, provider, url };
  running.push(entry);
  return entry;
}

describe.skipIf(!redisAvailable)('an OAuth sign-in across replicas (real Redis, real OAuth provider)', () => {
  beforeAll(async () => {
    fixture = await startOAuthFixture();
    // Before Redis stops: the gateways, their connections, then the provider they signed in at.
    bench.onClose(async () => {
      for (const { gateway, provider } of running) {
        await gateway.close();
        await provider.close();
      }
      for (const connection of connections) await connection.close();
      await fixture.close();
    });
  });

  it('case 2: signed in on B, a listener on A hears it once and A serves the tools (control: a replica outside the cluster does not)', async () => {
    const [a, b, outsider] = await Promise.all([replica('a', true), replica('b', true), replica('x', false)]);
    for (const each of [a, b, outsider]) expect(each.provider.status('remote')?.state).toBe('auth_required');
    const listener = await connectClient(a.url, 'modern');
    let heard = 0;
    listener.setNotificationHandler('notifications/tools/list_changed', () => {
      heard++;
    });
    await listener.listen({ toolsListChanged: true });
    expect(await toolNames(listener)).toContain('mcp_auth');

    const onB = await connectClient(b.url, 'legacy');
    const started = await onB.callTool({ name: 'mcp_auth', arguments: { server: 'remote' } });
    const { url: signIn } = JSON.parse((started.content as { text: string }[])[0]!.text) as { url: string };
    await followAuthorizationUrl(new URL(signIn));
    await expect.poll(() => b.provider.status('remote')?.state, { timeout: 20_000 }).toBe('connected');

    await expect.poll(() => a.provider.status('remote')?.state, { timeout: 20_000 }).toBe('connected');
    await waitUntil(() => heard > 0, 'until heard > 0', 10_000);
    const served = await toolNames(listener);
    expect(served).toContain('remote__whoami');
    expect(served).not.toContain('mcp_auth');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(heard).toBe(1);
    // The control: a gateway with its own vault and no cluster is still signed out.
    expect(outsider.provider.status('remote')?.state).toBe('auth_required');
    await onB.close();
    await listener.close();
  }, 90_000);
});
