import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveClusterKeys } from '../../src/cluster/cluster-key.js';
import { FORWARD_HEADER, signForward } from '../../src/cluster/forward-signature.js';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { runCli } from '../cli/cli-process.js';
import { sseEvents, ssePayload } from '../gateway/raw-legacy-session.js';
import { initializeRequest } from '../helpers/initialize-request.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { freePort, redisAvailable, writeConfig } from './cluster-harness.js';

/*
 * A forged forwarding header and a session id used with
 * another principal's token are refused; cluster mode refuses a short or missing key and exits
 * clearly (the Redis URL redacted) when Redis cannot be reached. Library gateways in this process
 * (two principals: the access token and the owner token), a real Redis.
 */

const bench = useClusterBench();
const ACCESS = 'access-token-1111';
const OWNER = 'owner-token-2222';
const key = bench.keyBytes;
const gateways: { gateway: Gateway; provider: McpToolHub; url: string }[] = [];
/** What the replicas logged (a dropped record or event is reported). */
const logs: string[] = [];

async function replica(name: string, port?: number) {
  const registry = new ToolRegistry();
  const config = { servers: { echo: stdioFixture('echo') } };
  const provider = await loadMcpServers(config, registry, {
    ...gatewayServerRequests(),
    connectTimeoutMs: 50_000,
  });
  port ??= await freePort();
  const gateway = createGateway({
    registry,
    provider,
    config,
    token: ACCESS,
    ownerToken: OWNER,
    cluster: { redis: bench.redis.url, key, advertiseUrl: `http://127.0.0.1:${port}`, replicaId: name },
    log: (line) => logs.push(line),
  });
  const { url } = await gateway.listen({ port });
  const running = { gateway, provider, url };
  gateways.push(running);
  return running;
}

const initialize = initializeRequest({ version: '2025-06-18' });
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

function post(
  url: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(url, {
    ...(signal === undefined ? {} : { signal }),
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const principalOf = (token: string) =>
  `token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

describe.skipIf(!redisAvailable)('cluster security (library gateways, real Redis)', () => {
  let a: Awaited<ReturnType<typeof replica>>;
  let b: Awaited<ReturnType<typeof replica>>;
  let sessionId: string;

  beforeAll(async () => {
    bench.onClose(async () => {
      for (const { gateway, provider } of gateways) {
        await gateway.close();
        await provider.close();
      }
    });
    [a, b] = await Promise.all([replica('a'), replica('b')]);
    const opened = await post(a.url, ACCESS, initialize);
    expect(opened.status).toBe(200);
    sessionId = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const initialized = await post(
      a.url,
      ACCESS,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        'mcp-session-id': sessionId,
      },
    );
    expect(initialized.status).toBe(202);
  }, 120_000);

  it('control: the session is served through B for the principal that opened it', async () => {
    const response = await post(b.url, ACCESS, listTools, { 'mcp-session-id': sessionId });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text, text).toContain('echo__echo');
  });

  it('keeps session records and events sealed in Redis; an event written there by hand never reaches a client resuming with Last-Event-ID', async () => {
    const cut = new AbortController();
    const slow = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'echo__slow', arguments: { ms: 1500, steps: 3 }, _meta: { progressToken: 'p' } },
    };
    const called = await post(a.url, ACCESS, slow, { 'mcp-session-id': sessionId }, cut.signal);
    const reader = sseEvents(called);
    // (A priming event first, for the protocol versions that have one.)
    let progress = (await reader.read()).value!;
    if (progress.data === '') progress = (await reader.read()).value!;
    expect(ssePayload(progress)?.method).toBe('notifications/progress');
    cut.abort();
    await reader.cancel().catch(() => {});
    // The progress event is in Redis (its write leaves a few milliseconds after it was sent).
    const scan = async (pattern: string) =>
      (await bench.redis.cli('--scan', '--pattern', pattern)).split('\n').filter(Boolean);
    const [events] = await expect
      .poll(() => scan('mcptools:*:events:*'), { message: 'the session event stream in Redis' })
      .toHaveLength(1)
      .then(() => scan('mcptools:*:events:*'));
    await expect
      .poll(async () => Number(await bench.redis.cli('XLEN', events!)), {
        message: 'the progress event stored',
      })
      .toBeGreaterThan(0);
    // A forged result written by hand under the next id of the stream, before the real one comes.
    const next = progress.id!.replace(
      /-(\d+)\.([^.]+)$/,
      (_all, n: string, stream: string) => `-${Number(n) + 1}.${stream}`,
    );
    const forged = {
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'forged-in-redis' }] },
    };
    await bench.redis.cli('XADD', events!, '*', 'i', next, 'm', JSON.stringify(forged));
    logs.length = 0;
    // Resumed through B: the real events replay (the control), the forged one does not.
    const resumed = await fetch(b.url, {
      headers: {
        authorization: `Bearer ${ACCESS}`,
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
        'last-event-id': progress.id!,
      },
    });
    expect(resumed.status).toBe(200);
    const rest: string[] = [];
    const more = sseEvents(resumed);
    for (let read = await more.read(); !read.done; read = await more.read()) rest.push(read.value.data);
    expect(rest.join('\n')).toContain('slept 1500ms');
    expect(rest.join('\n')).not.toContain('forged-in-redis');
    expect(logs.join('\n')).toMatch(/dropped a stored event/);
    // Nothing of the session is in Redis in clear: not its result, its client, its principal or id.
    const stored = await bench.redis.cli('XRANGE', events!, '-', '+');
    expect(stored).not.toContain('slept 1500ms');
    const [record] = await scan('mcptools:*:session:*');
    expect(await bench.redis.cli('HGETALL', record!)).not.toContain('clientInfo');
    const names = (await scan('mcptools:*')).join('\n');
    expect(names).not.toContain(sessionId);
    expect(names).not.toContain(principalOf(ACCESS));
  });

  it("refuses the session id presented with another principal's token, on B and on A", async () => {
    for (const url of [b.url, a.url]) {
      const response = await post(url, OWNER, listTools, { 'mcp-session-id': sessionId });
      expect(response.status).toBe(404);
    }
  });

  it('refuses a forged or replayed forwarding header: garbage, another cluster key, another replica, another body, stale, sent twice', async () => {
    const exchange = (target: string) => ({
      target: new URL(target).origin,
      method: 'POST',
      path: '/mcp',
      sessionId,
    });
    // What A's front door would have verified: the caller, signed in; no token is sent with it.
    const who = { principal: principalOf(ACCESS), owner: false, via: 'token' as const };
    const body = JSON.stringify(listTools);
    const right = deriveClusterKeys(key).forward;
    const wrong = deriveClusterKeys(randomBytes(32)).forward;
    const forwardTo = (url: string, header: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          'mcp-session-id': sessionId,
          [FORWARD_HEADER]: header,
        },
        body,
      });
    const forged = [
      `v2.${Date.now()}.${'0'.repeat(22)}.e30.${'0'.repeat(43)}.${'0'.repeat(43)}`,
      'anything',
      signForward(wrong, exchange(a.url), who, body),
      // Made for B, sent to A.
      signForward(right, exchange(b.url), who, body),
      signForward(right, exchange(a.url), who, JSON.stringify({ ...listTools, id: 99 })),
      signForward(right, exchange(a.url), who, body, Date.now() - 120_000),
    ];
    for (const header of forged) {
      const response = await forwardTo(a.url, header);
      expect(response.status).toBe(403);
      await response.body?.cancel();
    }
    // The control: a request signed with this cluster's key for A is served once, as the caller
    // signed into it, with no token; the same request captured and sent again is refused.
    const signed = signForward(right, exchange(a.url), who, body);
    const served = await forwardTo(a.url, signed);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('echo__echo');
    const replayed = await forwardTo(a.url, signed);
    expect(replayed.status).toBe(403);
    await replayed.body?.cancel();
  });

  it('refuses a forwarding header replayed to a replica restarted at the same address within its window (nonces claimed in Redis)', async () => {
    const port = await freePort();
    const first = await replica('c', port);
    const who = { principal: principalOf(ACCESS), owner: false, via: 'token' as const };
    const body = JSON.stringify(initialize);
    const right = deriveClusterKeys(key).forward;
    const exchange = { target: `http://127.0.0.1:${port}`, method: 'POST', path: '/mcp', sessionId: '' };
    const forwardTo = (url: string, header: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          [FORWARD_HEADER]: header,
        },
        body,
      });
    const signed = signForward(right, exchange, who, body);
    const served = await forwardTo(first.url, signed);
    expect(served.status).toBe(200);
    await served.text();
    // The replica restarts at the same address: a process with no memory of that nonce.
    gateways.splice(gateways.indexOf(first), 1);
    await first.gateway.close();
    await first.provider.close();
    const second = await replica('c', port);
    const replayed = await forwardTo(second.url, signed);
    expect(replayed.status).toBe(403);
    await replayed.body?.cancel();
    // The control: a header signed anew is served by the restarted replica.
    const fresh = await forwardTo(second.url, signForward(right, exchange, who, body));
    expect(fresh.status).toBe(200);
    await fresh.text();
  });

  it("answers a balancer's /readyz probe without a token (200 while Redis answers); the rest still needs one", async () => {
    const response = await fetch(new URL('/readyz', a.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ready: true });
    expect((await fetch(new URL('/healthz', a.url))).status).toBe(401);
  });
});

describe.skipIf(!redisAvailable)('mcptools serve --cluster refuses to start unsafely (built CLI)', () => {
  const base = () => [
    'serve',
    '--config',
    writeConfig(bench.dir, {}),
    '--http',
    '127.0.0.1:0',
    '--advertise',
    'http://127.0.0.1:1',
  ];

  it('without MCPTOOLS_CLUSTER_KEY, or with one shorter than 32 bytes', async () => {
    const missing = await runCli([...base(), '--cluster', 'redis://127.0.0.1:1'], bench.dir, {
      ...process.env,
      MCPTOOLS_CLUSTER_KEY: '',
    });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/MCPTOOLS_CLUSTER_KEY/);
    const short = await runCli([...base(), '--cluster', 'redis://127.0.0.1:1'], bench.dir, {
      ...process.env,
      MCPTOOLS_CLUSTER_KEY: randomBytes(16).toString('base64'),
    });
    expect(short.code).not.toBe(0);
    expect(short.stderr).toMatch(/16 bytes; it needs at least 32/);
  });

  it('when Redis cannot be reached: a clear error naming the URL with its password hidden', async () => {
    const run = await runCli([...base(), '--cluster', 'redis://:hunter2secret@127.0.0.1:1'], bench.dir, {
      ...process.env,
      MCPTOOLS_CLUSTER_KEY: randomBytes(32).toString('base64'),
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
    expect(run.stderr).not.toContain('hunter2secret');
  });
});
