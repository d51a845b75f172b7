import { describe, expect, it } from 'vitest';
import { connectClient } from '../gateway/gateway-test-helpers.js';
import { callAndCut, expectResumedOnce, openRawSession, sseEvents } from '../gateway/raw-legacy-session.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { useCluster } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * The streams of a cluster: a 2025 elicitation during a call on A
 * answered through B; a 2025 response stream cut and resumed with Last-Event-ID through B; a
 * 2026 listen stream on A when A is SIGKILLed. Replicas of the built CLI, real Redis, the test's
 * balancer; each case also runs with routing that keeps to one replica (the control).
 */

const cluster = useCluster({
  ask25: stdioFixture('sampling', ['--era', 'legacy']),
  echo: stdioFixture('echo'),
  changing: stdioFixture('changing'),
});

const openSession = () => openRawSession(cluster.balancer.url);

/** How many slow calls replica `index`'s echo server saw cancelled and completed. */
async function counts(index: number) {
  const observer = await connectClient(`${cluster.replicas[index]!.base}/mcp`, 'modern');
  try {
    const result = await observer.callTool({ name: 'echo__cancelled_count', arguments: {} });
    return result.structuredContent as { cancelled: number; completed: number };
  } finally {
    await observer.close();
  }
}

describe.skipIf(!redisAvailable)('streams across replicas (built CLI, real Redis)', () => {
  for (const { label, answerOn } of [
    { label: 'case 6: a 2025 elicitation during a call on A, answered through B', answerOn: 1 },
    { label: 'case 6 control: answered on A', answerOn: 0 },
  ]) {
    it(label, async () => {
      cluster.balancer.log.length = 0;
      // A client's answer is a POST with no method; everything else goes to A.
      cluster.balancer.route = (info) =>
        info.method === 'POST' && info.rpcMethod === undefined ? answerOn : 0;
      let asked = 0;
      const client = await connectClient(cluster.balancer.url, 'legacy', {
        capabilities: { elicitation: { form: {} } },
        prepare: (each) =>
          each.setRequestHandler('elicitation/create', async () => {
            asked++;
            return { action: 'accept', content: { city: `city-${answerOn}` } };
          }),
      });
      try {
        const result = await client.callTool({ name: 'ask25__ask_user', arguments: {} });
        expect(textOf(result as never)).toBe(`city: city-${answerOn}`);
        expect(asked).toBe(1);
        const answers = cluster.balancer.log.filter(
          (entry) => entry.method === 'POST' && entry.rpcMethod === undefined,
        );
        expect(answers.map((entry) => entry.index)).toEqual([answerOn]);
      } finally {
        await client.close();
      }
    }, 30_000);
  }

  for (const { label, resumeOn } of [
    { label: 'case 7: a cut 2025 response stream resumed through B', resumeOn: 1 },
    { label: 'case 7 control: resumed on A', resumeOn: 0 },
  ]) {
    it(`${label}: the result arrives once, the call was not cancelled`, async () => {
      // The session and its call on A; the resumption (a GET) where the case says.
      cluster.balancer.route = (info) => (info.method === 'GET' ? resumeOn : 0);
      const before = await counts(0);
      cluster.balancer.log.length = 0;
      const session = await openSession();
      const progress = await callAndCut(session, 1500, 3);
      await expectResumedOnce(await session.resume(progress), progress, 'slept 1500ms');
      const after = await counts(0);
      expect(after.cancelled).toBe(before.cancelled);
      expect(after.completed).toBe(before.completed + 1);
      expect(
        cluster.balancer.log.filter((entry) => entry.method === 'GET').map((entry) => entry.index),
      ).toEqual([resumeOn]);
    }, 30_000);
  }

  it("case 7: another session's event id is refused, through either replica", async () => {
    cluster.balancer.route = () => 0;
    const owner = await openSession();
    const { response } = owner.call(300, 1);
    const reader = sseEvents(await response);
    const priming = (await reader.read()).value!;
    for (const via of [1, 0]) {
      cluster.balancer.route = () => via;
      const other = await openSession();
      const stolen = await other.resume(priming.id!);
      expect(stolen.status).toBe(400);
      await stolen.body?.cancel();
    }
    for (let next = await reader.read(); !next.done; next = await reader.read()) {}
  }, 30_000);

  for (const { label, killed } of [
    { label: 'case 11: A SIGKILLed under a 2026 listen stream; the client re-listens on B', killed: 0 },
    { label: 'case 11 control: B SIGKILLed; the listen stream on A goes on', killed: 1 },
  ]) {
    it(`${label}, which delivers the next change`, async () => {
      cluster.balancer.route = () => 0;
      const listener = await connectClient(cluster.balancer.url, 'modern');
      let heard = 0;
      listener.setNotificationHandler('notifications/tools/list_changed', () => {
        heard++;
      });
      try {
        const first = await listener.listen({ toolsListChanged: true });
        let ended: string | undefined;
        void first.closed.then((how) => {
          ended = how;
        });
        await cluster.replicas[killed]!.kill();
        const survivor = 1 - killed;
        if (killed === 0) {
          await waitUntil(() => ended !== undefined, 'until ended !== undefined', 10_000);
          expect(ended).toBe('remote');
          cluster.balancer.route = () => survivor;
          await listener.listen({ toolsListChanged: true });
        }
        cluster.balancer.route = () => survivor;
        const name = `after_kill_${killed}`;
        await listener.callTool({ name: 'changing__add_tool', arguments: { name } });
        await waitUntil(() => heard > 0, 'until heard > 0', 10_000);
        expect((await listener.listTools()).tools.map((tool) => tool.name)).toContain(`changing__${name}`);
        if (killed === 1) expect(ended).toBeUndefined();
      } finally {
        await listener.close();
        await cluster.restart(killed);
      }
    }, 60_000);
  }
});
