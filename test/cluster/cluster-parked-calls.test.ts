import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { RequestStateSeal } from '../../src/cluster/request-state-seal.js';
import { connectClient } from '../gateway/gateway-test-helpers.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { useCluster } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * A 2026-07-28 call parked on a 2025 stdio upstream (it elicited, and
 * waits for the answer on replica A). Its retry on B is forwarded to A and completes; a tampered,
 * another principal's or an expired state is refused on either replica; with A SIGKILLed, the
 * retry gets the re-issue error. Replicas of the built CLI, real Redis, the test's balancer; each
 * case also runs with the retry routed to the replica that holds the call (the control).
 */

const GUEST = 'guest-token-0123456789';
const OTHER = 'other-token-0123456789';
const cluster = useCluster(
  { ask25: stdioFixture('sampling', ['--era', 'legacy']) },
  { extra: { gateway: { tokens: { guest: { token: GUEST }, other: { token: OTHER } } } } },
);

/** Routes the next `tools/call`s to these replicas, in order (anything else to the last one named). */
function routeCalls(...indexes: number[]) {
  const otherwise = indexes.at(-1) ?? 0;
  cluster.balancer.log.length = 0;
  cluster.balancer.route = (info) =>
    info.rpcMethod === 'tools/call' ? (indexes.shift() ?? otherwise) : otherwise;
}
const routedCalls = () =>
  cluster.balancer.log.filter((entry) => entry.rpcMethod === 'tools/call').map((entry) => entry.index);

const client = (token: string) =>
  connectClient(cluster.balancer.url, 'modern', {
    capabilities: { elicitation: { form: {} } },
    headers: { authorization: `Bearer ${token}` },
  });

/** The first round of `ask25__ask_user` (`input_required`), and the retry that answers `city`. */
async function parkCall(caller: Client, city: string) {
  const round = (await caller.callTool(
    { name: 'ask25__ask_user', arguments: {} },
    { allowInputRequired: true },
  )) as unknown as { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown> };
  expect(round.resultType).toBe('input_required');
  const [input] = Object.keys(round.inputRequests ?? {});
  const state = round.requestState as string;
  const retry = (requestState = state) =>
    ({
      name: 'ask25__ask_user',
      arguments: {},
      requestState,
      inputResponses: { [input as string]: { action: 'accept', content: { city } } },
    }) as never;
  return { state, retry };
}

const refusedAs = async (call: Promise<unknown>, message: RegExp) => {
  await expect(call).rejects.toMatchObject({ code: -32602 });
  await expect(call).rejects.toThrow(message);
};

describe.skipIf(!redisAvailable)(
  'a call parked on a 2025 upstream of replica A (built CLI, real Redis)',
  () => {
    for (const { label, retryOn } of [
      { label: 'case 4: its retry on B is forwarded to A and completes', retryOn: 1 },
      { label: 'case 4 control: its retry on A completes', retryOn: 0 },
    ]) {
      it(label, async () => {
        const guest = await client(GUEST);
        try {
          routeCalls(0, retryOn, retryOn);
          const { retry } = await parkCall(guest, 'Quito');
          expect(textOf((await guest.callTool(retry())) as never)).toBe('city: Quito');
          // Nothing is left parked on A: the same retry again names no call.
          await refusedAs(guest.callTool(retry()), /names no tools\/call waiting for input/);
          expect(routedCalls()).toEqual([0, retryOn, retryOn]);
        } finally {
          await guest.close();
        }
      }, 30_000);
    }

    it('case 4: a tampered, another principal’s or an expired state is refused on either replica; the call still completes', async () => {
      const [guest, other] = await Promise.all([client(GUEST), client(OTHER)]);
      try {
        routeCalls(0);
        const { state, retry } = await parkCall(guest, 'Accra');
        const at = state.length - 20;
        const tampered = `${state.slice(0, at)}${state[at] === 'x' ? 'y' : 'x'}${state.slice(at + 1)}`;
        // The same parked call's state, sealed again with the cluster key but already expired.
        const binding = { method: 'tools/call', principal: 'token:guest' };
        const key = Buffer.from(cluster.key, 'base64');
        const payload = new RequestStateSeal({ key, ttlMs: 60_000 }).open(state, binding);
        expect(payload).toMatchObject({ kind: 'parked', replica: 'a' });
        const expired = new RequestStateSeal({ key, ttlMs: -1000 }).seal(payload!, binding);
        const invalid = /Invalid or expired requestState/;
        for (const replica of [1, 0]) {
          routeCalls(replica, replica, replica);
          await refusedAs(guest.callTool(retry(tampered)), invalid);
          await refusedAs(other.callTool(retry()), invalid);
          await refusedAs(guest.callTool(retry(expired)), invalid);
          expect(routedCalls()).toEqual([replica, replica, replica]);
        }
        routeCalls(1);
        expect(textOf((await guest.callTool(retry())) as never)).toBe('city: Accra');
      } finally {
        await Promise.all([guest.close(), other.close()]);
      }
    }, 30_000);

    for (const { label, killed } of [
      { label: 'case 9: A SIGKILLed, the retry on B gets the re-issue error at once', killed: 0 },
      { label: 'case 9 control: B SIGKILLed, the retry on A completes', killed: 1 },
    ]) {
      it(label, async () => {
        const guest = await client(GUEST);
        try {
          routeCalls(0);
          const { retry } = await parkCall(guest, 'Lima');
          await cluster.replicas[killed]!.kill();
          const survivor = 1 - killed;
          routeCalls(survivor);
          const started = Date.now();
          if (killed === 0) {
            await refusedAs(guest.callTool(retry()), /another gateway replica.*re-issue the call/);
            // Not the heartbeat's expiry, nor the input timeout: the bound is loose (the issue's
            // 1 s is measured by bench/cluster.mjs).
            expect(Date.now() - started).toBeLessThan(2500);
            // Re-issued, the call parks on B and completes there.
            routeCalls(1, 1);
            const again = await parkCall(guest, 'Lima');
            expect(textOf((await guest.callTool(again.retry())) as never)).toBe('city: Lima');
          } else expect(textOf((await guest.callTool(retry())) as never)).toBe('city: Lima');
        } finally {
          await guest.close();
          await cluster.restart(killed);
        }
      }, 60_000);
    }
  },
);
