import type { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  type ClientCapabilities,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type RunningGateway, startGateway } from '../gateway/gateway-test-helpers.js';
import { DECLARING_TASKS, statelessRpc, TASKS_EXTENSION } from '../helpers/stateless-rpc.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

/*
 * run_script as a task, served by the gateway itself: a 2025-era caller asks with the `task`
 * param (the v1 SDK client's experimental tasks API over streamable HTTP: SDK v2 has no task
 * runtime, and its client refuses a task answer to tools/call), a 2026-07-28 caller by declaring the tasks extension in its envelope (raw requests,
 * as the tasks passthrough suite: the SDK client refuses a `resultType: "task"` answer). The
 * script runs in the background; its result is fetched, `tasks/cancel` stops it and its inner
 * call (the upstream sees the cancellation), another principal is told the task does not exist,
 * and a caller that asks for no task gets the synchronous answer.
 */

const TOKENS = {
  alice: 'alice-token-0123456789abcdef',
  bob: 'bob-token-0123456789abcdef',
  carol: 'carol-token-0123456789abcdef',
  dave: 'dave-token-0123456789abcdef',
  erin: 'erin-token-0123456789abcdef',
} as const;
type Who = keyof typeof TOKENS;
const auth = (who: Who) => ({ authorization: `Bearer ${TOKENS[who]}` });

const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');

/** A script whose one inner call waits a minute unless cancelled. */
const WAITS = 'await tools.echo.slow({ ms: 60000, steps: 1 }); return "woke"';

let running: RunningGateway;
let observer: Client;

beforeAll(async () => {
  running = await startGateway({
    servers: { echo: stdioFixture('echo') },
    policies: { requireApproval: [{ match: { tools: ['echo__add'] }, reason: 'Adding needs a yes' }] },
    gateway: {
      mode: 'router',
      tokens: Object.fromEntries(
        Object.entries(TOKENS).map(([name, token]) => [name, { token, principal: name }]),
      ),
      limits: { scriptTasksPerPrincipal: 4 },
    },
  });
  observer = await connectClient(running.url, 'legacy', { headers: auth('carol') });
}, 120_000);

afterAll(async () => {
  await observer?.close();
  await running?.close();
});

/** The echo upstream's counts of `slow` calls: started, cancelled, completed (process-wide). */
async function slowCounts(): Promise<{ started: number; cancelled: number; completed: number }> {
  const result = await observer.callTool({
    name: 'call_tool',
    arguments: { name: 'echo__cancelled_count', arguments: {} },
  });
  const text = textOf(result);
  const structured = (result.structuredContent ?? JSON.parse(text.slice(text.indexOf('{')))) as {
    started: number;
    cancelled: number;
    completed: number;
  };
  return structured;
}

describe('run_script as a task, 2025-era caller (task param)', () => {
  const clients: V1Client[] = [];
  const asked: string[] = [];
  /** A 2025-11-25 client of `who`: the v1 SDK's, whose experimental tasks API is the protocol's. */
  const client = async (who: Who, capabilities: ClientCapabilities = {}) => {
    const connected = new V1Client({ name: 'script-tasks-test', version: '1.0.0' }, { capabilities });
    // Approvals are answered with "allow-once", and noted.
    if (capabilities.elicitation !== undefined)
      connected.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(String(request.params.message));
        return { action: 'accept', content: { decision: 'allow-once' } };
      });
    await connected.connect(
      new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: auth(who) } }),
    );
    clients.push(connected);
    return connected;
  };
  afterAll(async () => {
    await Promise.all(clients.map((each) => each.close()));
  });

  /** Asks for `script` as a task (`ttl`): the created task, without waiting for its end. */
  const startTask = async (caller: V1Client, script: string, ttl = 60_000) => {
    const stream = caller.experimental.tasks.callToolStream(
      { name: 'run_script', arguments: { script } },
      CallToolResultSchema,
      { task: { ttl } },
    );
    for await (const message of stream) {
      if (message.type === 'taskCreated') return message.task;
      if (message.type === 'error') throw message.error;
    }
    throw new Error('no task was created');
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: { code?: number; message?: string }) => error,
    );

  it('declares task-augmented tools/call and lists run_script with taskSupport optional', async () => {
    const alice = await client('alice');
    expect(alice.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await alice.listTools();
    expect(tools.find((tool) => tool.name === 'run_script')?.execution).toEqual({ taskSupport: 'optional' });
    // Control: the other router tools run synchronously only.
    expect(tools.find((tool) => tool.name === 'call_tool')?.execution).toBeUndefined();
  });

  it('runs a script as a task: created working, polled to completion, its result fetched, listed', async () => {
    const alice = await client('alice');
    const seen: string[] = [];
    let result: { content?: unknown; _meta?: Record<string, unknown> } | undefined;
    let taskId: string | undefined;
    for await (const message of alice.experimental.tasks.callToolStream(
      { name: 'run_script', arguments: { script: 'return await tools.echo.echo({ text: "in a task" })' } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      seen.push(message.type === 'taskStatus' ? message.task.status : message.type);
      if (message.type === 'taskCreated') {
        taskId = message.task.taskId;
        expect(message.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 500 });
      }
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(seen[0]).toBe('taskCreated');
    expect(seen.at(-2)).toBe('completed');
    expect(seen.at(-1)).toBe('result');
    expect(textOf(result!)).toContain('in a task');
    expect(result!._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    expect(await alice.experimental.tasks.getTask(taskId!)).toMatchObject({ taskId, status: 'completed' });
    const { tasks } = await alice.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(taskId);
  });

  it('gives a failing script its error result, and the caller without the task param a synchronous answer', async () => {
    const alice = await client('alice');
    const created = await startTask(alice, 'throw new Error("nope")');
    const failed = await alice.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('nope');
    // Control: no task param, the normal answer of tools/call.
    const sync = await alice.callTool({ name: 'run_script', arguments: { script: 'return 6 * 7' } });
    expect((sync as { task?: unknown }).task).toBeUndefined();
    expect(textOf(sync as { content?: unknown })).toBe('42');
  });

  it('cancels: the script stops, its inner call is cancelled upstream, the task stays cancelled', async () => {
    const alice = await client('alice');
    const before = await slowCounts();
    const { taskId } = await startTask(alice, WAITS);
    await expect
      .poll(async () => (await slowCounts()).started, { message: 'the inner slow call reaches the upstream' })
      .toBe(before.started + 1);
    expect(await alice.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
    await expect
      .poll(async () => (await slowCounts()).cancelled, { message: 'the upstream saw the cancellation' })
      .toBe(before.cancelled + 1);
    expect(await alice.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'cancelled' });
    expect((await failure(alice.experimental.tasks.getTaskResult(taskId)))?.message).toMatch(/cancelled/);
    // A task that ended cannot be cancelled again (-32602).
    expect((await failure(alice.experimental.tasks.cancelTask(taskId)))?.code).toBe(-32602);
    expect((await slowCounts()).completed).toBe(before.completed);
  });

  it('refuses an approval inside a task (nobody can be asked), and the script can tell', async () => {
    const erin = await client('erin', { elicitation: {} });
    const script = `
      try { return (await tools.echo.add({ a: 1, b: 2 })).sum; }
      catch (error) { return "refused: " + error.message; }`;
    const { taskId } = await startTask(erin, script);
    const result = await erin.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(textOf(result)).toMatch(/^"refused: /);
    expect(asked).toEqual([]);
    // Control: the same script called synchronously asks the caller, who approves.
    const sync = await erin.callTool({ name: 'run_script', arguments: { script } });
    expect(textOf(sync as { content?: unknown })).toBe('3');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Adding needs a yes');
  });

  it('expires a task after its ttl: a running script is stopped (its inner call cancelled upstream), a result forgotten', async () => {
    const erin = await client('erin');
    const before = await slowCounts();
    const running = await startTask(erin, WAITS, 1500);
    const finished = await startTask(erin, 'return "kept a while"', 1500);
    expect(textOf(await erin.experimental.tasks.getTaskResult(finished.taskId, CallToolResultSchema))).toBe(
      '"kept a while"',
    );
    for (const { taskId } of [running, finished])
      await expect
        .poll(async () => (await failure(erin.experimental.tasks.getTask(taskId)))?.code, {
          message: 'the task is forgotten once its ttl passed',
          timeout: 15_000,
        })
        .toBe(-32602);
    await expect
      .poll(async () => (await slowCounts()).cancelled, {
        message: 'the expired script’s inner call was cancelled',
        timeout: 15_000,
      })
      .toBe(before.cancelled + 1);
    expect((await erin.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).not.toContain(
      running.taskId,
    );
    // A ttl beyond the gateway's scriptTaskTtlMs (1 hour by default) is cut to it.
    const long = await startTask(erin, 'return 1', 2 * 60 * 60_000);
    expect(long.ttl).toBe(60 * 60_000);
  });

  it('hides a task from another principal: not found, not listed, not cancellable; its owner still has it', async () => {
    const alice = await client('alice');
    const bob = await client('bob');
    const { taskId } = await startTask(alice, WAITS);
    const attempts = {
      'tasks/get': bob.experimental.tasks.getTask(taskId),
      'tasks/result': bob.experimental.tasks.getTaskResult(taskId),
      'tasks/cancel': bob.experimental.tasks.cancelTask(taskId),
    };
    for (const [method, attempt] of Object.entries(attempts)) {
      const refused = await failure(attempt);
      expect(refused?.code, method).toBe(-32602);
      expect(refused?.message, method).toContain(`Unknown taskId: ${taskId}`);
    }
    const { tasks } = await bob.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).not.toContain(taskId);
    // Control: bob's attempts left it running; alice cancels it.
    expect(await alice.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'working' });
    expect(await alice.experimental.tasks.cancelTask(taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('caps the tasks a principal has alive, naming the limit; another principal is not affected', async () => {
    const carol = await client('carol');
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) ids.push((await startTask(carol, WAITS)).taskId);
    expect((await failure(startTask(carol, 'return 1')))?.message).toMatch(/scriptTasksPerPrincipal \(4\)/);
    for (const taskId of ids) await carol.experimental.tasks.cancelTask(taskId);
    // Control: bob still gets a task.
    const bob = await client('bob');
    const created = await startTask(bob, 'return "bob ran"');
    expect(textOf(await bob.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema))).toBe(
      '"bob ran"',
    );
  });
});

/** The fields of a 2026-07-28 answer these tests read. */
interface WireResult {
  resultType?: string;
  taskId?: string;
  status?: string;
  content?: unknown;
  result?: { content?: unknown };
  capabilities?: { extensions?: Record<string, unknown> };
}

/** One stateless 2026-07-28 request of `who`; `capabilities` is the envelope's client capabilities. */
async function rpc(
  who: Who,
  method: string,
  params: Record<string, unknown>,
  capabilities: object = DECLARING_TASKS,
) {
  const { body } = await statelessRpc(running.url, method, params, {
    capabilities,
    headers: auth(who),
    client: 'script-tasks-test',
  });
  return body as { result?: WireResult; error?: { code: number; message: string } };
}

describe('run_script as a task, 2026-07-28 caller (tasks extension)', () => {
  const run = (who: Who, script: string, capabilities?: object) =>
    rpc(who, 'tools/call', { name: 'run_script', arguments: { script } }, capabilities);

  it('advertises the extension and answers a declaring caller with a task whose result tasks/get carries', async () => {
    const discovered = await rpc('dave', 'server/discover', {});
    expect(discovered.result?.capabilities?.extensions?.[TASKS_EXTENSION]).toEqual({});
    const created = await run('dave', 'return (await tools.echo.echo({ text: "modern task" }))');
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 500 });
    const taskId = created.result?.taskId as string;
    await expect
      .poll(async () => (await rpc('dave', 'tasks/get', { taskId })).result?.status, {
        message: 'the task completes',
      })
      .toBe('completed');
    const done = (await rpc('dave', 'tasks/get', { taskId })).result!;
    expect(done).toMatchObject({ taskId, resultType: 'complete' });
    expect(textOf(done.result ?? {})).toContain('modern task');
  });

  it('cancels: an ack, the task cancelled, the inner call cancelled upstream', async () => {
    const before = await slowCounts();
    const taskId = (await run('dave', WAITS)).result?.taskId as string;
    await expect
      .poll(async () => (await slowCounts()).started, { message: 'the inner slow call reaches the upstream' })
      .toBe(before.started + 1);
    const ack = await rpc('dave', 'tasks/cancel', { taskId });
    expect(ack.error).toBeUndefined();
    expect(ack.result?.taskId).toBeUndefined();
    expect((await rpc('dave', 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    await expect
      .poll(async () => (await slowCounts()).cancelled, { message: 'the upstream saw the cancellation' })
      .toBe(before.cancelled + 1);
  });

  it('tells another principal the task does not exist, and leaves it running', async () => {
    const taskId = (await run('dave', WAITS)).result?.taskId as string;
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const refused = await rpc('bob', method, { taskId, inputResponses: {} });
      expect(refused.error?.code, method).toBe(-32602);
      expect(refused.error?.message, method).toBe(`Unknown taskId: ${taskId}`);
    }
    expect((await rpc('dave', 'tasks/get', { taskId })).result).toMatchObject({ status: 'working' });
    await rpc('dave', 'tasks/cancel', { taskId });
  });

  it('answers a caller that did not declare the extension synchronously (control)', async () => {
    const sync = await run('dave', 'return 6 * 7', {});
    expect(sync.result?.resultType).toBe('complete');
    expect(sync.result?.taskId).toBeUndefined();
    expect(textOf(sync.result!)).toBe('42');
    const refused = await rpc('dave', 'tasks/get', { taskId: 'anything' }, {});
    expect(refused.error?.code).toBe(-32021);
  });
});
