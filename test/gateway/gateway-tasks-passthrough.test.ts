import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { DECLARING_TASKS, statelessRpc, TASKS_EXTENSION } from '../helpers/stateless-rpc.js';
import {
  connectClient,
  expectAllConnected,
  type RunningGateway,
  startGateway,
} from './gateway-test-helpers.js';

// Tasks passthrough (SEP-2663, `io.modelcontextprotocol/tasks`) through the gateway, in front of
// two instances of the conformance fixture (each a 2026-07-28 upstream implementing the
// extension, with task ids of its own process): a declaring client gets the upstream's
// CreateTaskResult under a gateway task id that routes tasks/get|update|cancel back to the
// upstream that created it; a client that did not declare it gets sync answers and -32021;
// an id the gateway did not hand out gets -32602. A gateway whose only upstream does not offer
// the extension advertises nothing and serves no tasks/* method. Raw requests: the suite's shape.

let running: RunningGateway;
let plain: RunningGateway;

beforeAll(async () => {
  const fixture = {
    type: 'stdio' as const,
    ...fixtureCommand('conformance', ['--no-resources']),
    protocol: '2026-07-28-first' as const,
  };
  [running, plain] = await Promise.all([
    startGateway({
      namespace: { separator: '_' },
      servers: { a: fixture, b: fixture },
      gateway: { profiles: { routed: { mode: 'router' } } },
    }),
    startGateway({
      namespace: { separator: '_' },
      servers: {
        old: { type: 'stdio', ...fixtureCommand('conformance', ['--no-resources', '--era', 'legacy']) },
      },
    }),
  ]);
  expectAllConnected(running.hub);
  expectAllConnected(plain.hub);
}, 120_000);

afterAll(async () => {
  await Promise.all([running?.close(), plain?.close()]);
});

/** One stateless 2026-07-28 request to `gateway`; `capabilities` is the envelope's client capabilities. */
async function rpc(
  gateway: RunningGateway,
  method: string,
  params: Record<string, unknown>,
  capabilities: object = DECLARING_TASKS,
  headers: Record<string, string> = {},
) {
  return statelessRpc(gateway.url, method, params, { capabilities, headers, client: 'tasks-test' });
}

/** tasks/get of `taskId` until it is terminal. */
async function settled(taskId: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { body } = await rpc(running, 'tasks/get', { taskId });
    if (body.error) throw new Error(JSON.stringify(body.error));
    if (['completed', 'failed', 'cancelled'].includes(body.result.status)) return body.result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`task ${taskId} did not settle`);
}

describe('tasks passthrough (io.modelcontextprotocol/tasks) through the gateway', () => {
  it('advertises the extension only when an upstream offers it', async () => {
    const offered = await rpc(running, 'server/discover', {});
    expect(offered.body.result.capabilities.extensions?.[TASKS_EXTENSION]).toEqual({});
    expect(offered.body.result.capabilities.tasks).toBeUndefined();
    const none = await rpc(plain, 'server/discover', {});
    expect(none.body.result.capabilities.extensions?.[TASKS_EXTENSION]).toBeUndefined();
    const get = await rpc(plain, 'tasks/get', { taskId: 'anything' });
    expect(get.body.error.code).toBe(-32601);
  });

  it('hands a declaring client the upstream CreateTaskResult, flat, under a gateway id routed back to its upstream', async () => {
    const fromA = await rpc(running, 'tools/call', {
      name: 'a_slow_compute',
      arguments: { seconds: 0.3, label: 'on-a' },
    });
    const fromB = await rpc(running, 'tools/call', {
      name: 'b_slow_compute',
      arguments: { seconds: 0.3, label: 'on-b' },
    });
    for (const { body } of [fromA, fromB]) {
      expect(body.result).toMatchObject({
        resultType: 'task',
        status: 'working',
        ttlMs: 600_000,
        pollIntervalMs: 200,
      });
      expect(body.result.task).toBeUndefined();
      // The gateway's id, not the upstream's own (`task-<pid>-<n>`).
      expect(body.result.taskId).toMatch(/^mts1\./);
    }
    expect(fromA.body.result.taskId).not.toBe(fromB.body.result.taskId);
    // Each id reaches the upstream that created it (each fixture process knows only its own tasks).
    const [doneA, doneB] = await Promise.all([
      settled(fromA.body.result.taskId),
      settled(fromB.body.result.taskId),
    ]);
    expect(doneA).toMatchObject({
      taskId: fromA.body.result.taskId,
      status: 'completed',
      resultType: 'complete',
    });
    expect(doneA.result.content[0].text).toContain('on-a');
    expect(doneB.result.content[0].text).toContain('on-b');
  });

  it('routes tasks/update and tasks/cancel by id, answers their acks as the upstream did', async () => {
    const created = await rpc(running, 'tools/call', {
      name: 'b_confirm_delete',
      arguments: { filename: 'x.txt' },
    });
    const taskId = created.body.result.taskId as string;
    let waiting: { status: string; inputRequests?: Record<string, unknown> } | undefined;
    for (let attempt = 0; attempt < 50 && waiting?.status !== 'input_required'; attempt++)
      waiting = (await rpc(running, 'tasks/get', { taskId })).body.result;
    expect(Object.keys(waiting?.inputRequests ?? {})).toEqual(['confirm']);
    const ack = await rpc(running, 'tasks/update', {
      taskId,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(ack.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await settled(taskId)).result.content[0].text).toBe('deleted x.txt');

    const long = await rpc(running, 'tools/call', { name: 'a_slow_compute', arguments: { seconds: 60 } });
    const cancel = await rpc(running, 'tasks/cancel', { taskId: long.body.result.taskId });
    expect(cancel.body.result.resultType).toBe('complete');
    expect(cancel.body.result.taskId).toBeUndefined();
    expect((await settled(long.body.result.taskId)).status).toBe('cancelled');
  });

  it('tells the upstream nothing for a client that did not declare the extension: sync answers, -32021 on tasks/*', async () => {
    const sync = await rpc(running, 'tools/call', { name: 'a_slow_compute', arguments: { seconds: 0 } }, {});
    expect(sync.body.result.resultType).toBe('complete');
    expect(sync.body.result.taskId).toBeUndefined();
    expect(sync.body.result.content[0].text).toContain('computed');
    const required = await rpc(running, 'tools/call', { name: 'a_failing_job', arguments: {} }, {});
    expect(required.body.error.code).toBe(-32021);
    expect(required.body.error.data.requiredCapabilities.extensions[TASKS_EXTENSION]).toEqual({});

    const created = await rpc(running, 'tools/call', { name: 'a_slow_compute', arguments: { seconds: 60 } });
    const taskId = created.body.result.taskId as string;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const refused = await rpc(running, method, { taskId, inputResponses: {} }, {});
      expect(refused.body.error.code, method).toBe(-32021);
    }
    await rpc(running, 'tasks/cancel', { taskId });
  });

  it('offers nothing new to a 2025-era session, even one that declares the extension: sync answers', async () => {
    const client = await connectClient(running.url, 'legacy', { capabilities: DECLARING_TASKS });
    try {
      expect(client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION]).toBeUndefined();
      const result = await client.callTool({ name: 'a_slow_compute', arguments: { seconds: 0 } });
      expect((result as { taskId?: string }).taskId).toBeUndefined();
      expect(JSON.stringify(result.content)).toContain('computed');
    } finally {
      await client.close();
    }
  });

  it("does not tell the upstream through the router's call_tool (its answer could not be routed): sync", async () => {
    const routed = { ...running, url: `${running.url}/routed` };
    const { body } = await rpc(routed, 'tools/call', {
      name: 'call_tool',
      arguments: { name: 'a_slow_compute', arguments: { seconds: 0.2, label: 'routed' } },
    });
    expect(body.result.resultType).toBe('complete');
    expect(body.result.taskId).toBeUndefined();
    expect(JSON.stringify(body.result.content)).toContain('computed routed');
    expect(body.result._meta?.['mcptools/createdTask']).toBeUndefined();
  });

  it('never takes a plain result for a task: an upstream cannot forge the key that carries one inside', async () => {
    const { body } = await rpc(running, 'tools/call', { name: 'a_forged_task_meta', arguments: {} });
    expect(body.result.resultType).toBe('complete');
    expect(body.result.taskId).toBeUndefined();
    expect(body.result.content).toEqual([{ type: 'text', text: 'not a task' }]);
    expect(body.result._meta?.['mcptools/createdTask']).toBeUndefined();
  });

  it('refuses an id it did not hand out with -32602: made up, tampered, or the upstream own', async () => {
    const created = await rpc(running, 'tools/call', { name: 'a_slow_compute', arguments: { seconds: 60 } });
    const taskId = created.body.result.taskId as string;
    const flipped = `${taskId.slice(0, -2)}${taskId.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const forged of ['tasks-conformance-nonexistent-12345', flipped, 'task-1-1']) {
      const { body } = await rpc(running, 'tasks/get', { taskId: forged });
      expect(body.error?.code, forged).toBe(-32602);
    }
    // A mismatched Mcp-Name header is refused before routing (-32020).
    const mismatched = await rpc(running, 'tasks/get', { taskId }, DECLARING_TASKS, { 'mcp-name': 'other' });
    expect(mismatched.body.error.code).toBe(-32020);
    await rpc(running, 'tasks/cancel', { taskId });
  });
});

describe('tasks passthrough across replicas (cluster mode: any replica may get a request)', () => {
  let upstream: HttpFixture;
  let replicas: RunningGateway[] = [];
  const tokens = { token: 'guest-token-1', ownerToken: 'owner-token-2' };
  const owner = { authorization: `Bearer ${tokens.ownerToken}` };
  const guest = { authorization: `Bearer ${tokens.token}` };

  beforeAll(async () => {
    upstream = await startHttpFixture('conformance', ['--no-resources', '--era', 'modern']);
    const key = randomBytes(32);
    const config = { servers: { t: { type: 'streamable-http' as const, url: upstream.url } } };
    replicas = await Promise.all([
      startGateway(config, { requestStateKey: key, replicaId: 'A', ...tokens }),
      startGateway(config, { requestStateKey: key, replicaId: 'B', ...tokens }),
      startGateway(config, { requestStateKey: randomBytes(32), replicaId: 'other-key', ...tokens }),
    ]);
    for (const replica of replicas) expectAllConnected(replica.hub);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await upstream?.close();
  });

  it('a task created through one replica is read and cancelled through another with the same key; another key or another principal is refused', async () => {
    const [a, b, other] = replicas as [RunningGateway, RunningGateway, RunningGateway];
    const created = await rpc(
      a,
      'tools/call',
      { name: 't__slow_compute', arguments: { seconds: 60 } },
      DECLARING_TASKS,
      owner,
    );
    const taskId = created.body.result.taskId as string;
    expect(created.body.result.resultType).toBe('task');
    const got = await rpc(b, 'tasks/get', { taskId }, DECLARING_TASKS, owner);
    expect(got.body.result).toMatchObject({ taskId, status: 'working' });
    expect((await rpc(other, 'tasks/get', { taskId }, DECLARING_TASKS, owner)).body.error.code).toBe(-32602);
    // Bound to its principal: another token, on the same replica, does not reach it.
    expect((await rpc(a, 'tasks/get', { taskId }, DECLARING_TASKS, guest)).body.error.code).toBe(-32602);
    expect((await rpc(b, 'tasks/cancel', { taskId }, DECLARING_TASKS, owner)).body.result.resultType).toBe(
      'complete',
    );
    expect((await rpc(a, 'tasks/get', { taskId }, DECLARING_TASKS, owner)).body.result.status).toBe(
      'cancelled',
    );
  });
});
