import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { metrics } from '@opentelemetry/api';
import { type DataPoint, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeRequest } from '../helpers/initialize-request.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * One principal at its quota of 2025 sessions or of subscriptions/listen streams neither ends
 * nor blocks another principal's; its refusal is 429 with Retry-After.
 */

/** A reader collected on demand (the SDK's own pull path, as the Prometheus exporter uses). */
class PullReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}
const reader = new PullReader();

beforeAll(() => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});

afterAll(() => {
  metrics.disable();
});

/** `mcptools.gateway.quota.refusals` by quota. */
async function refusals(): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const counted: Record<string, number> = {};
  for (const scope of resourceMetrics.scopeMetrics)
    for (const metric of scope.metrics)
      if (metric.descriptor.name === 'mcptools.gateway.quota.refusals')
        for (const point of metric.dataPoints as DataPoint<number>[])
          counted[String(point.attributes['mcptools.quota'])] = point.value;
  return counted;
}

const TOKENS = {
  alice: 'alice-token-0123456789abcdef',
  bob: 'bob-token-0123456789abcdef',
  mallory: 'mallory-token-0123456789abcdef',
} as const;
type Who = keyof typeof TOKENS;

const auth = (who: Who) => ({ authorization: `Bearer ${TOKENS[who]}` });

/** Opens a 2025 session as `who` with a raw `initialize`: its id, or the refusal's status and `Retry-After`. */
async function initialize(url: string, who: Who) {
  const answer = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...auth(who),
    },
    body: JSON.stringify(initializeRequest({ id: 0, client: who })),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    id: answer.headers.get('mcp-session-id'),
    retryAfter: answer.headers.get('retry-after'),
    text,
  };
}

/** The HTTP status of a `ping` in session `id`, as `who`. */
async function ping(url: string, who: Who, id: string): Promise<number> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
      ...auth(who),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await answer.text();
  return answer.status;
}

/** A 2025 client of `who` with a call of `echo__slow` in flight (its first progress arrived). */
async function busyClient(url: string, who: Who) {
  const client = new Client({ name: who, version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth(who) } });
  await client.connect(transport);
  let progressed!: () => void;
  const started = new Promise<void>((resolve) => {
    progressed = resolve;
  });
  const call = client
    .callTool(
      { name: 'echo__slow', arguments: { ms: 60_000, steps: 600 } },
      { onprogress: () => progressed() },
    )
    .catch(() => undefined);
  await started;
  /** Ends the session (DELETE): its call is cancelled at once, not kept for a resumption. */
  const end = async () => {
    await transport.terminateSession();
    await client.close();
    await call;
  };
  return { client, end };
}

const config = (limits: Record<string, number>) => ({
  servers: { echo: stdioFixture('echo', [], { protocol: '2025' as const }) },
  gateway: {
    tokens: Object.fromEntries(
      Object.entries(TOKENS).map(([name, token]) => [name, { token, principal: name }]),
    ),
    limits,
  },
});

describe('2025 sessions: per-principal quota beside the global cap', () => {
  let running: RunningGateway;

  beforeAll(async () => {
    // The global cap through the older `maxSessions` option, which `limits.sessions` joins.
    running = await startGateway(config({ sessionsPerPrincipal: 3 }), { maxSessions: 4 });
  });

  afterAll(async () => {
    await running?.close();
  });

  it("a principal at its quota ends its own least recently used idle session, never another principal's", async () => {
    const bobs = await initialize(running.url, 'bob');
    expect(bobs.status).toBe(200);
    const mallorys = [];
    for (let index = 0; index < 3; index++) mallorys.push((await initialize(running.url, 'mallory')).id!);
    // The gateway holds 4 (its cap); bob's is the least recently used of all.
    const fourth = await initialize(running.url, 'mallory');
    expect(fourth.status).toBe(200);
    expect(await ping(running.url, 'bob', bobs.id!)).toBe(200);
    expect(await ping(running.url, 'mallory', mallorys[0]!)).toBe(404);
    for (const id of [...mallorys.slice(1), fourth.id!])
      expect(await ping(running.url, 'mallory', id)).toBe(200);
    for (const id of [...mallorys.slice(1), fourth.id!])
      await fetch(running.url, { method: 'DELETE', headers: { 'mcp-session-id': id, ...auth('mallory') } });
    await fetch(running.url, { method: 'DELETE', headers: { 'mcp-session-id': bobs.id!, ...auth('bob') } });
  });

  it('a principal whose sessions all have calls in flight gets 429 with Retry-After; another principal still opens one', async () => {
    const busy = [];
    for (let index = 0; index < 3; index++) busy.push(await busyClient(running.url, 'mallory'));
    try {
      const refused = await initialize(running.url, 'mallory');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.text).toMatch(/for this caller/);
      // Counted by quota, with no principal in the metric.
      expect(await refusals()).toEqual({ sessions_per_principal: 1 });
      const alices = await initialize(running.url, 'alice');
      expect(alices.status).toBe(200);
      expect(await ping(running.url, 'alice', alices.id!)).toBe(200);
      // None of mallory's sessions was ended to make that room.
      for (const { client } of busy) await expect(client.ping()).resolves.toBeDefined();
    } finally {
      for (const { end } of busy) await end();
    }
    // Control: with its calls over, the same principal opens a session again.
    expect((await initialize(running.url, 'mallory')).status).toBe(200);
  });
});

describe('subscriptions/listen streams: per-principal quota beside the global cap', () => {
  let running: RunningGateway;

  beforeAll(async () => {
    running = await startGateway(config({ listenStreams: 3, listenStreamsPerPrincipal: 2 }));
  });

  afterAll(async () => {
    await running?.close();
  });

  /** A 2026-07-28 client of `who` whose HTTP answers to `subscriptions/listen` are recorded. */
  async function listener(who: Who) {
    const answers: { status: number; retryAfter: string | null }[] = [];
    const client = new Client({ name: who, version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(running.url), {
        requestInit: { headers: auth(who) },
        fetch: async (input, init) => {
          const answer = await fetch(input, init);
          if (new Headers(init?.headers).get('mcp-method') === 'subscriptions/listen')
            answers.push({ status: answer.status, retryAfter: answer.headers.get('retry-after') });
          return answer;
        },
      }),
    );
    return { client, answers };
  }

  it('refuses a principal past its quota with 429 and Retry-After, and still serves another principal', async () => {
    const mallory = await listener('mallory');
    const bob = await listener('bob');
    try {
      const held = [
        await mallory.client.listen({ toolsListChanged: true }),
        await mallory.client.listen({ toolsListChanged: true }),
      ];
      await expect(mallory.client.listen({ toolsListChanged: true })).rejects.toThrow();
      expect(mallory.answers.at(-1)).toEqual({ status: 429, retryAfter: expect.stringMatching(/^\d+$/) });
      // Another principal is not blocked by mallory's streams…
      const bobs = await bob.client.listen({ toolsListChanged: true });
      expect(bob.answers).toEqual([{ status: 200, retryAfter: null }]);
      // …until the global cap, which refuses the same way.
      await expect(bob.client.listen({ toolsListChanged: true })).rejects.toThrow();
      expect(bob.answers.at(-1)?.status).toBe(429);
      expect(await refusals()).toMatchObject({ listen_streams_per_principal: 1, listen_streams: 1 });
      // Control: a stream closed frees its place.
      await held[0]!.close();
      await expect
        .poll(
          async () => {
            try {
              const again = await mallory.client.listen({ toolsListChanged: true });
              held.push(again);
              return true;
            } catch {
              return false;
            }
          },
          { message: 'a closed stream should free its place' },
        )
        .toBe(true);
      for (const stream of [...held.slice(1), bobs]) await stream.close();
    } finally {
      await mallory.client.close();
      await bob.client.close();
    }
  });
});
