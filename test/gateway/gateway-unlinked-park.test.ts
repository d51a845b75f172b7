import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * A 2025-era stdio upstream's elicitation carries no link to the call that made it. While one
 * principal's call is parked on it, another principal's call that asks is refused (never
 * guessed: that would show one user's question to another), so such a parked call is held for
 * `gateway.limits.unlinkedParkMs`, not for the whole `inputTimeoutMs`.
 */

const TOKENS = { alice: 'alice-token-0123456789abcdef', bob: 'bob-token-0123456789abcdef' } as const;

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

/** The first round of `ask25__ask_user` for `caller` (`input_required`) and the retry answering it with `city`. */
async function firstRound(caller: Client, city: string) {
  const round = (await caller.callTool(
    { name: 'ask25__ask_user', arguments: {} },
    { allowInputRequired: true },
  )) as unknown as Round;
  expect(round.resultType).toBe('input_required');
  const [key] = Object.keys(round.inputRequests ?? {});
  return {
    name: 'ask25__ask_user',
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

  it('control: a client that answers within the park time gets its result', async () => {
    running = await startGateway(config(60_000));
    const alice = await client(running.url, 'alice', 'Cairo');
    clients.push(alice);
    const retry = await firstRound(alice, 'Cairo');
    expect(textOf((await alice.callTool(retry)) as never)).toBe('city: Cairo');
    expect(running.gateway.calls()).toEqual({ running: 0, parked: 0 });
  });
});
