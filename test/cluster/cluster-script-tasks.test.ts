import { describe, expect, it } from 'vitest';
import { statelessRpc } from '../helpers/stateless-rpc.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { useCluster } from './cluster-fixture.js';
import { redisAvailable } from './cluster-harness.js';

/*
 * A run_script the gateway runs as a task lives on the replica that started it (replica A here):
 * a 2026-07-28 tasks/get or tasks/cancel for it that lands on B is forwarded to A, as a parked
 * call's retry is, and answered there; another principal's request for it is refused on either
 * replica without being forwarded. Replicas of the built CLI, real Redis, the test's balancer;
 * each case also runs with the request routed to A itself (the control).
 */

const TOKENS = { guest: 'guest-token-0123456789', other: 'other-token-0123456789' } as const;
type Who = keyof typeof TOKENS;

const cluster = useCluster(
  { echo: stdioFixture('echo') },
  {
    extra: {
      gateway: {
        mode: 'router',
        tokens: Object.fromEntries(Object.entries(TOKENS).map(([name, token]) => [name, { token }])),
      },
    },
  },
);

/** Routes `tools/call` to replica A and every tasks/* request to `tasksOn`. */
function route(tasksOn: number) {
  cluster.balancer.log.length = 0;
  cluster.balancer.route = (info) => (info.rpcMethod?.startsWith('tasks/') ? tasksOn : 0);
}
const routedTasks = () =>
  cluster.balancer.log.filter((entry) => entry.rpcMethod?.startsWith('tasks/')).map((entry) => entry.index);

/** One stateless 2026-07-28 request of `who` through the balancer, declaring the tasks extension. */
async function rpc(who: Who, method: string, params: Record<string, unknown>) {
  const { body } = await statelessRpc(cluster.balancer.url, method, params, {
    headers: { authorization: `Bearer ${TOKENS[who]}` },
    client: 'cluster-script-tasks',
  });
  return body as {
    result?: { taskId?: string; status?: string; result?: { content?: { text?: string }[] } };
    error?: { code: number; message: string };
  };
}

const startTask = async (script: string) => {
  const created = await rpc('guest', 'tools/call', { name: 'run_script', arguments: { script } });
  expect(created.error).toBeUndefined();
  return created.result?.taskId as string;
};

describe.skipIf(!redisAvailable)('a run_script task of replica A (built CLI, real Redis)', () => {
  for (const { label, tasksOn } of [
    { label: 'its tasks/get and tasks/cancel on B are forwarded to A', tasksOn: 1 },
    { label: 'control: on A itself', tasksOn: 0 },
  ]) {
    it(label, async () => {
      route(tasksOn);
      const done = await startTask('return await tools.echo.echo({ text: "ran on A" })');
      await expect
        .poll(async () => (await rpc('guest', 'tasks/get', { taskId: done })).result?.status, {
          message: 'the task completes',
        })
        .toBe('completed');
      const got = await rpc('guest', 'tasks/get', { taskId: done });
      expect(got.result?.result?.content?.[0]?.text).toContain('ran on A');

      const waiting = await startTask('await tools.echo.slow({ ms: 60000, steps: 1 }); return 1');
      expect((await rpc('guest', 'tasks/cancel', { taskId: waiting })).error).toBeUndefined();
      expect((await rpc('guest', 'tasks/get', { taskId: waiting })).result?.status).toBe('cancelled');
      expect(new Set(routedTasks())).toEqual(new Set([tasksOn]));
    }, 60_000);
  }

  it('refuses another principal on either replica, without detail; the owner still reads it', async () => {
    route(0);
    const taskId = await startTask('await tools.echo.slow({ ms: 60000, steps: 1 }); return 1');
    for (const tasksOn of [1, 0]) {
      route(tasksOn);
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const refused = await rpc('other', method, { taskId });
        expect(refused.error, `${method} on ${tasksOn}`).toEqual({
          code: -32602,
          message: `Unknown taskId: ${taskId}`,
        });
      }
    }
    route(1);
    expect((await rpc('guest', 'tasks/get', { taskId })).result?.status).toBe('working');
    await rpc('guest', 'tasks/cancel', { taskId });
  }, 60_000);
});
