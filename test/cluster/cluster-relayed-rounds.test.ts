import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { cityClient } from '../gateway/gateway-test-helpers.js';
import { httpServer, textOf } from '../mcp/hub-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { freePort, redisAvailable } from './cluster-harness.js';

/*
 * A 2026-07-28 upstream's own input_required, relayed through a cluster: the first retry of a
 * round continues its call (free under a rate limit), and the same round sent again is a new
 * call on every replica, not free once per replica. Two library gateways of one cluster on a
 * real Redis, a rate limit of one call per tool shared through it.
 */

const bench = useClusterBench();
let upstream: HttpFixture;
const replicas: { gateway: Gateway; provider: McpToolHub; url: string }[] = [];
const clients = bench.clients;

interface Round {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string }>;
}

async function replica(name: string) {
  const registry = new ToolRegistry();
  const config = {
    servers: { ask: httpServer(upstream.url) },
    policies: {
      rateLimits: [
        { match: { tools: ['ask__ask_user'] }, per: 'tool' as const, limit: 1, windowMs: 3_600_000 },
      ],
    },
  };
  const provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    connectTimeoutMs: 50_000,
  });
  const port = await freePort();
  const gateway = createGateway({
    registry,
    provider,
    config,
    cluster: {
      redis: bench.redis.url,
      key: bench.keyBytes,
      advertiseUrl: `http://127.0.0.1:${port}`,
      replicaId: name,
    },
  });
  const { url } = await gateway.listen({ host: '127.0.0.1', port });
  const running = { gateway, provider, url };
  replicas.push(running);
  return running;
}

describe.skipIf(!redisAvailable)('a relayed round across replicas (library gateways, real Redis)', () => {
  beforeAll(async () => {
    upstream = await startHttpFixture('sampling', ['--era', 'modern']);
    // After the clients, before Redis: the gateways, then the upstream they called.
    bench.onClose(async () => {
      for (const { gateway, provider } of replicas) {
        await gateway.close();
        await provider.close();
      }
      await upstream.close();
    });
    await replica('a');
    await replica('b');
  }, 120_000);

  it('the first retry continues the call; the same round replayed to the other replica is a new call, refused by the limit', async () => {
    const [onA, onB] = [
      await cityClient(replicas[0]!.url, 'modern', 'Quito'),
      await cityClient(replicas[1]!.url, 'modern', 'Quito'),
    ];
    clients.push(onA, onB);
    const call = { name: 'ask__ask_user', arguments: {} };
    // The call takes the one token of the cluster's bucket.
    const round = (await onA.callTool(call, { allowInputRequired: true })) as unknown as Round;
    expect(round.resultType).toBe('input_required');
    const [answer] = Object.keys(round.inputRequests ?? {});
    const retry = (client: Client) =>
      client.callTool({
        ...call,
        requestState: round.requestState,
        inputResponses: { [answer as string]: { action: 'accept', content: { city: 'Quito' } } },
      } as never);
    // The control: its first retry, on the other replica, continues the call (free).
    expect(textOf((await retry(onB)) as never)).toBe('city: Quito');
    // The same round again, on A (which has not seen a retry of it): a new call, over the limit.
    for (const client of [onA, onB]) {
      const replayed = await retry(client);
      expect(replayed.isError).toBe(true);
      expect(textOf(replayed as never)).toMatch(/Rate limit reached/);
    }
  });
});
