import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { connectClient } from '../gateway/gateway-test-helpers.js';
import { waitUntil } from '../helpers/wait-until.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { useClusterBench } from './cluster-fixture.js';
import { type Replica, redisAvailable } from './cluster-harness.js';

/*
 * Configured rate limits in cluster mode: the buckets live in Redis, so a limit of
 * N calls holds across replicas (not N per replica); with Redis down, calls keep flowing,
 * limited by each replica's local bucket, and the replica says so once.
 */

const LIMIT = 3;
const bench = useClusterBench();
let replicas: Replica[] = [];

/** A call's outcome: its text, and whether the pipeline refused it. */
async function call(client: Client, tool: string, text: string): Promise<{ ok: boolean; text: string }> {
  // echo__echo takes `text`; echo__fail returns `message` as an isError result.
  const result = await client.callTool({
    name: tool,
    arguments: tool === 'echo__fail' ? { message: text } : { text },
  });
  return { ok: result.isError !== true, text: textOf(result as never) };
}

describe.skipIf(!redisAvailable)('rate limits across replicas (built CLI, real Redis)', () => {
  beforeAll(async () => {
    const config = bench.config(
      { echo: fixtureCommand('echo') },
      {
        policies: {
          rateLimits: [
            { match: { tools: ['echo__echo'] }, per: 'tool', limit: LIMIT, windowMs: 3_600_000 },
            { match: { tools: ['echo__fail'] }, per: 'tool', limit: LIMIT, windowMs: 3_600_000 },
          ],
        },
      },
    );
    replicas = await Promise.all(['a', 'b'].map((name) => bench.replica({ name, config })));
  }, 120_000);

  async function clientsOfBoth(era: 'modern' | 'legacy'): Promise<[Client, Client]> {
    const both = await Promise.all(replicas.map((replica) => connectClient(`${replica.base}/mcp`, era)));
    bench.clients.push(...both);
    return both as [Client, Client];
  }

  it('holds one limit across two replicas: the calls after the limit are refused on either', async () => {
    const [onA, onB] = await clientsOfBoth('modern');
    // Alternating replicas: every call of the limit passes, wherever it lands.
    const outcomes = [];
    for (let index = 0; index < LIMIT; index++)
      outcomes.push(await call(index % 2 === 0 ? onA : onB, 'echo__echo', `call ${index}`));
    expect(outcomes.map((outcome) => outcome.ok)).toEqual(Array(LIMIT).fill(true));
    // Each replica alone has used fewer than the limit; together they used it up.
    for (const client of [onA, onB]) {
      const refused = await call(client, 'echo__echo', 'one too many');
      expect(refused.ok).toBe(false);
      expect(refused.text).toMatch(
        /^Rate limit reached for tool "echo__echo": 3 calls per 3600 s .*Retry after \d+ s$/,
      );
    }
    // The bucket is the cluster's, in its namespace, its name hashed (a bucket may name a principal).
    const keys = (await bench.redis.cli('--scan', '--pattern', 'mcptools:*:ratelimit:*'))
      .split('\n')
      .filter(Boolean);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join('\n')).not.toContain('echo__echo');
  }, 60_000);

  it('keeps serving with Redis down, limited per replica, says so once, and shares the limit again after', async () => {
    const [onA, onB] = await clientsOfBoth('modern');
    await bench.redis.stop();
    // 2026 traffic does not need Redis: each replica's own bucket limits it meanwhile.
    for (const client of [onA, onB]) {
      const outcomes = [];
      for (let index = 0; index <= LIMIT; index++)
        outcomes.push((await call(client, 'echo__fail', 'x')).text);
      expect(outcomes.slice(0, LIMIT)).toEqual(Array(LIMIT).fill('x'));
      expect(outcomes[LIMIT]).toMatch(/Rate limit reached .*Retry after/);
    }
    for (const replica of replicas) {
      const warnings = replica.stderr().match(/rate limits: the shared store did not answer/g) ?? [];
      expect(warnings).toHaveLength(1);
    }

    await bench.redis.start();
    // Back to one bucket for both once each has reconnected (this Redis kept nothing: a fresh one).
    for (const client of [onA, onB])
      await waitUntil(
        async () => (await call(client, 'echo__fail', 'again')).text === 'again',
        "until (await call(client, 'echo__fail', 'again')).text === 'again'",
        30_000,
      );
    for (const replica of replicas)
      expect(replica.stderr()).toContain(
        'rate limits: the shared store answers again; limits are cluster-wide again',
      );
    const after = [];
    for (let index = 0; index < LIMIT; index++)
      after.push((await call(index % 2 === 0 ? onA : onB, 'echo__fail', 'y')).text);
    // A and B each spent one token of the new bucket above: LIMIT - 2 more pass, on either replica.
    expect(after.filter((text) => text === 'y')).toHaveLength(LIMIT - 2);
  }, 120_000);

  it('does not hold a call while Redis hangs: past 500 ms the local bucket decides', async () => {
    const [onA] = await clientsOfBoth('modern');
    const warnedBefore = replicas[0]!.stderr().match(/the shared store did not answer/g)?.length ?? 0;
    // Redis restarted empty above: the cluster's bucket of echo__echo is spent now (each
    // replica's own one stays full, never used while Redis answered).
    const spending = [];
    for (let index = 0; index <= LIMIT; index++) spending.push((await call(onA, 'echo__echo', 'spend')).ok);
    expect(spending).toEqual([...Array(LIMIT).fill(true), false]);
    // Every client but this one is paused for 3 s: the replica's EVALSHA gets no answer.
    await bench.redis.cli('CLIENT', 'PAUSE', '3000', 'ALL');
    const paused = await call(onA, 'echo__echo', 'while redis hangs');
    expect(paused).toEqual({ ok: true, text: 'while redis hangs' });
    expect(replicas[0]!.stderr().match(/the shared store did not answer/g)?.length).toBe(warnedBefore + 1);
    expect(replicas[0]!.stderr()).toMatch(/did not answer \(Redis did not answer within 500 ms\)/);
    // (A new connection waits out the pause too: this returns when it ends.)
    await bench.redis.cli('CLIENT', 'UNPAUSE');
  }, 60_000);
});
