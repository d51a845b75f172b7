import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture } from '../fixtures/spawn-http.js';
import { httpServer, stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * A 2025-era stdio upstream's elicitation carries no link to the call that made it. While one
 * principal's call is parked on it, another principal's call that asks is refused (never
 * guessed: that would show one user's question to another), so such a parked call is held for
 * `gateway.limits.unlinkedParkMs`, not for the whole `inputTimeoutMs`.
 */

const TOKENS = {
  alice: 'alice-token-0123456789abcdef',
  bob: 'bob-token-0123456789abcdef',
  mallory: 'mallory-token-0123456789abcdef',
} as const;

const config = (unlinkedParkMs: number) => ({
  servers: { ask25: stdioFixture('sampling', ['--era', 'legacy']) },
  gateway: {
    tokens: Object.fromEntries(
      Object.entries(TOKENS).map(([name, token]) => [name, { token, principal: name }]),
    ),
    limits: { unlinkedParkMs },
  },
});

const client = (url: string, who: keyof typeof TOKENS, city: string) =>
  connectClient(url, 'modern', {
    capabilities: { elicitation: { form: {} } },
    headers: { authorization: `Bearer ${TOKENS[who]}` },
    // Only a legacy session is pushed requests; a 2026 client answers rounds (below), never this.
    prepare: (made) =>
      made.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { city } })),
  });

interface Round {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string; params?: { message?: string } }>;
}

/** The first round of `tool` for `caller` (`input_required`) and the retry answering it with `city`. */
async function firstRound(caller: Client, city: string, tool = 'ask25__ask_user') {
  const round = (await caller.callTool(
    { name: tool, arguments: {} },
    { allowInputRequired: true },
  )) as unknown as Round;
  expect(round.resultType, JSON.stringify(round)).toBe('input_required');
  const [key] = Object.keys(round.inputRequests ?? {});
  return {
    name: tool,
    arguments: {},
    requestState: round.requestState,
    inputResponses: { [key as string]: { action: 'accept', content: { city } } },
  } as never;
}

const textOf = (result: { content?: { type: string; text?: string }[] }) => result.content?.[0]?.text ?? '';

let running: RunningGateway | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((each) => each.close()));
  await running?.close();
  running = undefined;
});

describe('a call parked on a 2025 stdio upstream that cannot link its requests', () => {
  it("is held only for unlinkedParkMs: another principal's elicitation is refused meanwhile (not guessed), and goes through after", async () => {
    // inputTimeoutMs stays at its default (5 minutes): only the unlinked park is short.
    running = await startGateway(config(1000));
    const [alice, bob] = await Promise.all([
      client(running.url, 'alice', 'Cairo'),
      client(running.url, 'bob', 'Dakar'),
    ]);
    clients.push(alice, bob);
    // Alice's call is parked, and she never comes back.
    await firstRound(alice, 'Cairo');
    expect(running.gateway.calls()).toEqual({ running: 0, parked: 1 });
    // Bob's call asks while it is parked: refused (which call asked cannot be told), not guessed.
    const refused = await bob.callTool(
      { name: 'ask25__ask_user', arguments: {} },
      { allowInputRequired: true },
    );
    expect(refused.isError).toBe(true);
    expect(textOf(refused as never)).toMatch(/refused rather than guessed/);
    // The operator who reads it learns the way out.
    expect(textOf(refused as never)).toMatch(/set its "protocol" to "auto"/);
    // Bounded by the short park: alice's call is cancelled upstream…
    await expect
      .poll(() => running?.gateway.calls().parked, {
        message: 'the unlinked parked call should end after unlinkedParkMs, not inputTimeoutMs',
        timeout: 20_000,
      })
      .toBe(0);
    // …and bob's next elicitation reaches bob.
    const retry = await firstRound(bob, 'Dakar');
    expect(textOf((await bob.callTool(retry)) as never)).toBe('city: Dakar');
  });

  it('the way out: the same server spoken to in 2026-07-28 (protocol "auto") parks nothing, and another principal is asked at once', async () => {
    running = await startGateway({
      ...config(1000),
      servers: { ask25: { ...stdioFixture('sampling'), protocol: '2026-07-28-first' as const } },
    });
    expect(running.hub.status('ask25')?.era).toBe('modern');
    const [alice, bob] = await Promise.all([
      client(running.url, 'alice', 'Cairo'),
      client(running.url, 'bob', 'Dakar'),
    ]);
    clients.push(alice, bob);
    const aliceRetry = await firstRound(alice, 'Cairo');
    // The upstream's input_required is relayed: nothing is held while alice is away.
    expect(running.gateway.calls()).toEqual({ running: 0, parked: 0 });
    const bobRetry = await firstRound(bob, 'Dakar');
    expect(textOf((await bob.callTool(bobRetry)) as never)).toBe('city: Dakar');
    expect(textOf((await alice.callTool(aliceRetry)) as never)).toBe('city: Cairo');
  });

  it('control: a client that answers within the park time gets its result', async () => {
    running = await startGateway(config(60_000));
    const alice = await client(running.url, 'alice', 'Cairo');
    clients.push(alice);
    const retry = await firstRound(alice, 'Cairo');
    expect(textOf((await alice.callTool(retry)) as never)).toBe('city: Cairo');
    expect(running.gateway.calls()).toEqual({ running: 0, parked: 0 });
  });
});

describe('parked calls: a per-principal quota beside the global cap', () => {
  /** A parked read of `ask://city` for `caller`, and the retry that answers it with `city`. */
  async function parkedRead(caller: Client, city: string) {
    const uri = 'mcptools://ask/ask://city';
    const round = (await caller.readResource({ uri }, { allowInputRequired: true })) as unknown as Round;
    expect(round.resultType, JSON.stringify(round)).toBe('input_required');
    const [key] = Object.keys(round.inputRequests ?? {});
    const retry = {
      uri,
      requestState: round.requestState,
      inputResponses: { [key as string]: { action: 'accept', content: { city } } },
    };
    return async () => {
      const { contents } = await caller.readResource(retry as never);
      return (contents[0] as { text?: string } | undefined)?.text;
    };
  }

  it("a principal past its quota loses its own oldest parked call; another principal's parked call is untouched", async () => {
    // A 2025 HTTP upstream sends a read's elicitation on the read's own response stream (linked):
    // several reads park at once.
    const upstream = await startHttpFixture('sampling', ['--era', 'legacy']);
    try {
      running = await startGateway({
        servers: { ask: httpServer(upstream.url) },
        gateway: {
          tokens: Object.fromEntries(
            Object.entries(TOKENS).map(([name, token]) => [name, { token, principal: name }]),
          ),
          limits: { parkedCallsPerPrincipal: 2 },
        },
      });
      const [bob, mallory] = await Promise.all([
        client(running.url, 'bob', 'Dakar'),
        client(running.url, 'mallory', 'Lima'),
      ]);
      clients.push(bob, mallory);
      // Bob's is the oldest parked call of all.
      const bobs = await parkedRead(bob, 'Dakar');
      const mallorys = [];
      for (let index = 0; index < 3; index++) mallorys.push(await parkedRead(mallory, 'Lima'));
      expect(running.gateway.calls()).toEqual({ running: 0, parked: 3 });
      // Mallory's first was cancelled to make room for her third…
      await expect(mallorys[0]!()).rejects.toThrow();
      for (const retry of mallorys.slice(1)) expect(await retry()).toBe('city: Lima');
      // …and bob's, older than all of them, was not.
      expect(await bobs()).toBe('city: Dakar');
    } finally {
      await Promise.all(clients.splice(0).map((each) => each.close()));
      await running?.close();
      running = undefined;
      await upstream.close();
    }
  });
});
