import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { cityClient, type RunningGateway, startGateway } from '../gateway/gateway-test-helpers.js';
import { eventually, httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

/*
 * A 2026-07-28 upstream's own input_required, relayed by the gateway, takes two rounds (the
 * call, the client's retry with the answers): rate limits and the audit log count the call
 * once. The same round sent again is a new call, counted again; so is a retry that carries a
 * round's requestState for another tool or other arguments (a continuation continues its own call only).
 */

const LIMIT = 2;
const scratch = mkdtempSync(join(tmpdir(), 'mcptools-relayed-'));
const auditFile = join(scratch, 'calls.jsonl');
let upstream: HttpFixture;
let running: RunningGateway;
const clients: Client[] = [];

interface Round {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string }>;
}

beforeAll(async () => {
  upstream = await startHttpFixture('sampling', ['--era', 'modern']);
  running = await startGateway({
    servers: { ask: httpServer(upstream.url) },
    policies: {
      rateLimits: [{ match: { tools: ['ask__ask_user'] }, per: 'tool', limit: LIMIT, windowMs: 3_600_000 }],
      audit: { file: auditFile },
    },
  });
  expect(running.hub.status('ask')?.era).toBe('modern');
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await running?.close();
  await upstream?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const auditRecords = () =>
  readFileSync(auditFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { tool: string; outcome: string; continuation?: boolean });

describe('a relayed input_required round', () => {
  it('counts once per call in the rate limit and the audit log', async () => {
    const client = await cityClient(running.url, 'modern', 'Lima');
    clients.push(client);
    // Each call takes two rounds; the limit of 2 admits two calls (four rounds), not one.
    for (let index = 0; index < LIMIT; index++)
      expect(textOf((await client.callTool({ name: 'ask__ask_user', arguments: {} })) as never)).toBe(
        'city: Lima',
      );

    const complete = await eventually(() => {
      try {
        return auditRecords().length >= 2 * LIMIT;
      } catch {
        return false;
      }
    }, 10_000);
    expect(complete).toBe(true);
    const records = auditRecords();
    expect(records.map((record) => [record.outcome, record.continuation === true])).toEqual([
      ['input-required', false],
      ['ok', true],
      ['input-required', false],
      ['ok', true],
    ]);
    // Calls, counted as records that do not continue another.
    expect(records.filter((record) => !record.continuation)).toHaveLength(LIMIT);

    // The limit is used up: the next call is refused in its first round.
    const refused = await client.callTool({ name: 'ask__ask_user', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused as never)).toMatch(/Rate limit reached for tool "ask__ask_user".*Retry after/);
  });

  it('counts a replayed round as a new call (one sealed requestState cannot slip past a limit)', async () => {
    // A gateway of its own, so the bucket starts full.
    const own = await startGateway({
      servers: { ask: httpServer(upstream.url) },
      policies: {
        rateLimits: [{ match: { tools: ['ask__ask_user'] }, per: 'tool', limit: 2, windowMs: 3_600_000 }],
      },
    });
    try {
      const client = await cityClient(own.url, 'modern', 'Quito');
      clients.push(client);
      const call = { name: 'ask__ask_user', arguments: {} };
      const round = (await client.callTool(call, { allowInputRequired: true })) as unknown as Round;
      expect(round.resultType).toBe('input_required');
      const [key] = Object.keys(round.inputRequests ?? {});
      const retry = () =>
        client.callTool({
          ...call,
          requestState: round.requestState,
          inputResponses: { [key as string]: { action: 'accept', content: { city: 'Quito' } } },
        } as never);
      // The first retry continues the call: free.
      expect(textOf((await retry()) as never)).toBe('city: Quito');
      // The same round again: a new call, which takes the second token…
      expect(textOf((await retry()) as never)).toBe('city: Quito');
      // …and then there is none left.
      const refused = await retry();
      expect(refused.isError).toBe(true);
      expect(textOf(refused as never)).toMatch(/Rate limit reached/);
    } finally {
      await own.close();
    }
  });

  it("limits and audits as a new call a retry that carries another call's round for another tool", async () => {
    // A gateway of its own: `echo__echo` may run once an hour; `ask__ask_user` is not limited.
    const scratchAudit = join(scratch, 'cross-tool.jsonl');
    const own = await startGateway({
      servers: { ask: httpServer(upstream.url), echo: stdioFixture('echo') },
      policies: {
        rateLimits: [{ match: { tools: ['echo__echo'] }, per: 'tool', limit: 1, windowMs: 3_600_000 }],
        audit: { file: scratchAudit },
      },
    });
    try {
      const client = await cityClient(own.url, 'modern', 'Oslo');
      clients.push(client);
      const ask = { name: 'ask__ask_user', arguments: {} };
      const firstRound = async () => {
        const round = (await client.callTool(ask, { allowInputRequired: true })) as unknown as Round;
        expect(round.resultType).toBe('input_required');
        return round;
      };
      // Five rounds of the unlimited tool, each state used once for the limited one.
      const outcomes: boolean[] = [];
      for (let index = 0; index < 5; index++) {
        const round = await firstRound();
        const echoed = await client.callTool({
          name: 'echo__echo',
          arguments: { text: `try ${index}` },
          requestState: round.requestState,
          inputResponses: {},
        } as never);
        outcomes.push(echoed.isError === true);
      }
      // Only the first one runs (it takes the one token); the other four are refused.
      expect(outcomes).toEqual([false, true, true, true, true]);

      // The control: a legitimate retry of its own round still continues its call.
      const round = await firstRound();
      const [key] = Object.keys(round.inputRequests ?? {});
      const answered = await client.callTool({
        ...ask,
        requestState: round.requestState,
        inputResponses: { [key as string]: { action: 'accept', content: { city: 'Oslo' } } },
      } as never);
      expect(textOf(answered as never)).toBe('city: Oslo');
      // …but the same tool with other arguments does not continue it.
      const other = await firstRound();
      const [otherKey] = Object.keys(other.inputRequests ?? {});
      const reshaped = await client.callTool({
        name: 'ask__ask_user',
        arguments: { extra: true },
        requestState: other.requestState,
        inputResponses: { [otherKey as string]: { action: 'accept', content: { city: 'Oslo' } } },
      } as never);
      // (its audit record below says it continues nothing)
      expect(reshaped.content).toBeDefined();

      // The audit log: the echo calls are calls (none a continuation); the legit retry is one.
      await expect
        .poll(
          () => {
            try {
              return readFileSync(scratchAudit, 'utf8').split('\n').filter(Boolean).length;
            } catch {
              return 0;
            }
          },
          { message: 'the audit records of every round', timeout: 10_000 },
        )
        .toBeGreaterThanOrEqual(14);
      const records = readFileSync(scratchAudit, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { tool: string; outcome: string; continuation?: boolean });
      const echoes = records.filter((record) => record.tool === 'echo__echo');
      expect(echoes).toHaveLength(5);
      expect(echoes.some((record) => record.continuation === true)).toBe(false);
      expect(echoes.map((record) => record.outcome)).toEqual([
        'ok',
        'blocked',
        'blocked',
        'blocked',
        'blocked',
      ]);
      const continued = records.filter((record) => record.continuation === true);
      expect(continued.map((record) => [record.tool, record.outcome])).toEqual([['ask__ask_user', 'ok']]);
    } finally {
      await own.close();
    }
  });
});
