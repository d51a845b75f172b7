import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requestStateReplica } from '../../src/cluster/request-state-owner.js';
import { RequestStateSeal } from '../../src/cluster/request-state-seal.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import {
  connectClient,
  expectAllConnected,
  type RunningGateway,
  startGateway,
} from './gateway-test-helpers.js';
import { type ReplicaBalancer, startReplicaBalancer } from './replica-balancer.js';

/*
 * The 2026-07-28 path of cluster mode without Redis: two gateway replicas sharing a
 * requestStateKey behind a round-robin balancer. A 2026 upstream's input_required is relayed
 * (its retry continues on either replica, nothing parked); a call parked on a 2025 stdio
 * upstream continues only on its replica, and elsewhere gets a -32602 that says to re-issue.
 */

const key = randomBytes(32);
const GUEST = 'guest-token-1';
const OWNER = 'owner-token-2';
let samplingModern: HttpFixture;
let a: RunningGateway;
let b: RunningGateway;
let balancer: ReplicaBalancer;

beforeAll(async () => {
  samplingModern = await startHttpFixture('sampling', ['--era', 'modern']);
  const config = {
    servers: {
      ask: httpServer(samplingModern.url),
      ask25: stdioFixture('sampling', ['--era', 'legacy']),
    },
    gateway: { profiles: { routed: { mode: 'router' as const } } },
  };
  const replica = (replicaId: string) =>
    startGateway(config, { requestStateKey: key, replicaId, token: GUEST, ownerToken: OWNER });
  [a, b] = await Promise.all([replica('A'), replica('B')]);
  expectAllConnected(a.hub);
  expectAllConnected(b.hub);
  expect(a.hub.status('ask')?.era).toBe('modern');
  expect(a.hub.status('ask25')?.era).toBe('legacy');
  balancer = await startReplicaBalancer({ A: a.url, B: b.url });
});

afterAll(async () => {
  await balancer?.close();
  await Promise.all([a?.close(), b?.close()]);
  await samplingModern?.close();
});

const client = (token: string) =>
  connectClient(balancer.url, 'modern', {
    capabilities: { elicitation: { form: {} } },
    headers: { authorization: `Bearer ${token}` },
  });

interface Round {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string }>;
}

/** The first round of `tool` (`input_required`), and the retry that answers it with `city`. */
async function firstRound(caller: Client, tool: string, city: string) {
  const round = (await caller.callTool(
    { name: tool, arguments: {} },
    { allowInputRequired: true },
  )) as unknown as Round;
  expect(round.resultType).toBe('input_required');
  const keys = Object.keys(round.inputRequests ?? {});
  expect(keys.map((key) => round.inputRequests?.[key]?.method)).toEqual(['elicitation/create']);
  const retry = {
    name: tool,
    arguments: {},
    requestState: round.requestState,
    inputResponses: { [keys[0] as string]: { action: 'accept', content: { city } } },
  };
  return { round, retry: retry as never, state: round.requestState as string };
}

/** The calls of the round just routed went where the case sent them. */
const lastCalls = (count: number) =>
  balancer.routed
    .filter((entry) => entry.what === 'tools/call')
    .slice(-count)
    .map((entry) => entry.replica);

let guest: Client;
let owner: Client;

beforeEach(async () => {
  guest ??= await client(GUEST);
  owner ??= await client(OWNER);
});

afterAll(async () => {
  await Promise.all([guest?.close(), owner?.close()]);
});

describe('a 2026-07-28 upstream: its input_required is relayed', () => {
  it('continues on the other replica, and nothing was parked on the first', async () => {
    balancer.next('A');
    const { retry, state } = await firstRound(guest, 'ask__ask_user', 'Lisbon');
    // The upstream's own state travels inside the gateway's, sealed: the client cannot read it.
    expect(state.startsWith('mts1.')).toBe(true);
    expect(Buffer.from(state.split('.')[2] ?? '', 'base64url').toString('latin1')).not.toContain(
      'ask_user-upstream-state',
    );
    expect(a.gateway.calls()).toEqual({ running: 0, parked: 0 });
    balancer.next('B');
    const result = await guest.callTool(retry);
    expect(lastCalls(2)).toEqual(['A', 'B']);
    // The fixture answers isError unless its own state came back byte for byte.
    expect(result.isError).toBeFalsy();
    expect(textOf(result as never)).toBe('city: Lisbon');
    expect(a.gateway.calls()).toEqual({ running: 0, parked: 0 });
    expect(b.gateway.calls()).toEqual({ running: 0, parked: 0 });
  });

  it('continues a tool with an output schema on the other replica, its result still checked', async () => {
    balancer.next('A');
    const { retry } = await firstRound(guest, 'ask__ask_user_structured', 'Porto');
    expect(a.gateway.calls()).toEqual({ running: 0, parked: 0 });
    balancer.next('B');
    const result = await guest.callTool(retry);
    expect(result.structuredContent).toEqual({ city: 'Porto' });
    expect(textOf(result as never)).toBe('city: Porto');
  });

  it('continues on the same replica too (the control)', async () => {
    balancer.next('B');
    const { retry } = await firstRound(guest, 'ask__ask_user', 'Oslo');
    balancer.next('B');
    expect(textOf((await guest.callTool(retry)) as never)).toBe('city: Oslo');
    expect(lastCalls(2)).toEqual(['B', 'B']);
  });

  it('continues a resources/read and a prompts/get on the other replica', async () => {
    const answer = (round: Round, city: string) => {
      const [key] = Object.keys(round.inputRequests ?? {});
      return {
        requestState: round.requestState,
        inputResponses: { [key as string]: { action: 'accept', content: { city } } },
      };
    };
    const uri = 'mcptools://ask/ask://city';
    balancer.next('A');
    const read = (await guest.readResource({ uri }, { allowInputRequired: true })) as unknown as Round;
    expect(read.resultType).toBe('input_required');
    balancer.next('B');
    const { contents } = await guest.readResource({ uri, ...answer(read, 'Kyiv') } as never);
    expect(contents).toEqual([expect.objectContaining({ uri, text: 'city: Kyiv' })]);
    balancer.next('A');
    const get = (await guest.getPrompt(
      { name: 'ask__ask_city' },
      { allowInputRequired: true },
    )) as unknown as Round;
    expect(get.resultType).toBe('input_required');
    balancer.next('B');
    const prompt = await guest.getPrompt({ name: 'ask__ask_city', ...answer(get, 'Riga') } as never);
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'city: Riga' } }]);
    expect(a.gateway.calls()).toEqual({ running: 0, parked: 0 });
  });

  it("continues a call through the router's call_tool on the other replica", async () => {
    const routed = await connectClient(`${balancer.url}/routed`, 'modern', {
      capabilities: { elicitation: { form: {} } },
      headers: { authorization: `Bearer ${GUEST}` },
    });
    try {
      const call = { name: 'call_tool', arguments: { name: 'ask__ask_user', arguments: {} } };
      balancer.next('A');
      const round = (await routed.callTool(call, { allowInputRequired: true })) as unknown as Round;
      expect(round.resultType).toBe('input_required');
      expect(a.gateway.calls()).toEqual({ running: 0, parked: 0 });
      const [key] = Object.keys(round.inputRequests ?? {});
      balancer.next('B');
      const result = await routed.callTool({
        ...call,
        requestState: round.requestState,
        inputResponses: { [key as string]: { action: 'accept', content: { city: 'Bogotá' } } },
      } as never);
      expect(lastCalls(2)).toEqual(['A', 'B']);
      expect(textOf(result as never)).toBe('city: Bogotá');
    } finally {
      await routed.close();
    }
  });

  it('still refuses an input request of a capability the client did not declare', async () => {
    const bare = await connectClient(balancer.url, 'modern', {
      headers: { authorization: `Bearer ${GUEST}` },
    });
    try {
      // Told the caller's capabilities, the upstream's SDK refuses with -32021 (MCP 2026-07-28),
      // which the gateway passes on as that error, not as a tool failure.
      await expect(
        bare.callTool({ name: 'ask__ask_user', arguments: {} }, { allowInputRequired: true }),
      ).rejects.toMatchObject({
        code: -32021,
        message: expect.stringMatching(/do not declare the required capability/),
      });
    } finally {
      await bare.close();
    }
  });
});

describe('a 2025 stdio upstream: the call is parked on its replica', () => {
  it('tells a retry on the other replica to re-issue the call; on its own replica it completes', async () => {
    balancer.next('A');
    const { retry, state } = await firstRound(guest, 'ask25__ask_user', 'Quito');
    expect(a.gateway.calls()).toEqual({ running: 0, parked: 1 });
    // Cluster mode reads the owner from the retry itself, to forward it there.
    const principal = `token:${createHash('sha256').update(GUEST).digest('hex').slice(0, 16)}`;
    const seal = new RequestStateSeal({ key, ttlMs: 60_000 });
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { requestState: state } };
    expect(requestStateReplica(seal, body, { principal, owner: false })).toBe('A');
    balancer.next('B');
    const elsewhere = guest.callTool(retry);
    await expect(elsewhere).rejects.toMatchObject({ code: -32602 });
    await expect(elsewhere).rejects.toThrow(/another gateway replica.*re-issue the call/);
    balancer.next('A');
    expect(textOf((await guest.callTool(retry)) as never)).toBe('city: Quito');
    expect(lastCalls(3)).toEqual(['A', 'B', 'A']);
    expect(a.gateway.calls()).toEqual({ running: 0, parked: 0 });
  });
});

describe('an abandoned parked call (its retry refused on the other replica)', () => {
  it('holds a 2025 stdio upstream only until inputTimeoutMs, then its next elicitation goes through', async () => {
    const config = { servers: { ask25: stdioFixture('sampling', ['--era', 'legacy']) } };
    const holder = await startGateway(config, {
      requestStateKey: key,
      replicaId: 'D',
      inputTimeoutMs: 1500,
      token: GUEST,
      ownerToken: OWNER,
    });
    const on = (url: string, token: string) =>
      connectClient(url, 'modern', {
        capabilities: { elicitation: { form: {} } },
        headers: { authorization: `Bearer ${token}` },
      });
    const [abandoning, elsewhere, next] = await Promise.all([
      on(holder.url, GUEST),
      on(b.url, GUEST),
      on(holder.url, OWNER),
    ]);
    try {
      const { retry } = await firstRound(abandoning, 'ask25__ask_user', 'Cairo');
      await expect(elsewhere.callTool(retry)).rejects.toThrow(/re-issue the call/);
      expect(holder.gateway.calls()).toEqual({ running: 0, parked: 1 });
      // Meanwhile the stdio upstream's next request cannot be told apart: refused, not guessed.
      const refused = await next.callTool({ name: 'ask25__ask_user', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused as never)).toMatch(/refused rather than guessed/);
      // Bounded: the parked call is cancelled upstream at inputTimeoutMs…
      await waitUntil(() => holder.gateway.calls().parked === 0, 'until holder.gateway.calls().parked === 0');
      // …and the next elicitation reaches the client whose call made it.
      const again = await firstRound(next, 'ask25__ask_user', 'Dakar');
      expect(textOf((await next.callTool(again.retry)) as never)).toBe('city: Dakar');
    } finally {
      await Promise.all([abandoning.close(), elsewhere.close(), next.close()]);
      await holder.close();
    }
  });
});

describe('a requestState that does not open is refused with -32602 and no reason', () => {
  it.each([
    ['ask', 'relayed'],
    ['ask25', 'parked'],
  ])('on either replica: tampered, or from another principal (%s, %s)', async (server) => {
    balancer.next('A');
    const { retry, state } = await firstRound(guest, `${server}__ask_user`, 'Accra');
    const at = state.length - 20;
    const forged = `${state.slice(0, at)}${state[at] === 'x' ? 'y' : 'x'}${state.slice(at + 1)}`;
    for (const replica of ['A', 'B']) {
      balancer.next(replica);
      const tampered = guest.callTool({ ...(retry as object), requestState: forged } as never);
      await expect(tampered).rejects.toMatchObject({ code: -32602 });
      await expect(tampered).rejects.toThrow(/Invalid or expired requestState/);
      balancer.next(replica);
      const stolen = owner.callTool(retry);
      await expect(stolen).rejects.toMatchObject({ code: -32602 });
      await expect(stolen).rejects.toThrow(/Invalid or expired requestState/);
    }
    // The call was not disturbed: its own client still completes it.
    balancer.next('A');
    expect(textOf((await guest.callTool(retry)) as never)).toBe('city: Accra');
  });

  it('when it expired (inputTimeoutMs), on a replica that shares the key', async () => {
    const config = { servers: { ask: httpServer(samplingModern.url) } };
    const short = await startGateway(config, { requestStateKey: key, replicaId: 'C', inputTimeoutMs: 300 });
    const late = await connectClient(short.url, 'modern', { capabilities: { elicitation: { form: {} } } });
    try {
      const { retry } = await firstRound(late, 'ask__ask_user', 'Lima');
      // Its requestState was sealed before this answer arrived, to expire inputTimeoutMs later:
      // waited for by the clock it is checked against, not a fixed sleep.
      const expiresBy = Date.now() + 300;
      await waitUntil(() => Date.now() >= expiresBy, 'until the requestState is past inputTimeoutMs');
      const expired = late.callTool(retry);
      await expect(expired).rejects.toMatchObject({ code: -32602 });
      await expect(expired).rejects.toThrow(/Invalid or expired requestState/);
    } finally {
      await late.close();
      await short.close();
    }
  });
});
