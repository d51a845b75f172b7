import {
  type CallToolRequest,
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { declaresTasks } from '../../mcp/created-tasks.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import {
  callerOf,
  type DownstreamSession,
  requestSession,
  stateBinding,
} from '../sessions/downstream-session.js';
import type { CallHost } from './call-host.js';
import { DownstreamCall } from './downstream-call.js';
import { toProtocolError } from './protocol-error.js';
import type { ScriptTask, ScriptTaskOwner } from './script-tasks.js';
import { capabilitiesOf, type DownstreamCallScope, type UpstreamWork } from './serve-downstream-call.js';
import { era2025TaskAnswer } from './task-answering-server.js';

/** What a gateway task id is bound to besides the principal and client (as the passthrough's). */
const TASK_BINDING = 'tasks';
/** How often a caller is asked to poll a script task. */
const POLL_INTERVAL_MS = 500;
/** The 2025-11-25 key relating a message to its task. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The 2025-11-25 capability: `tasks/list`, `tasks/cancel` and task-augmented `tools/call`. */
const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * Whether this `tools/call` of `run_script` is to run as a task, and the time to live asked
 * for: a 2025-era request with a `task` param (the gateway declares task-augmented
 * `tools/call`), or a 2026-07-28 one whose client declared the tasks extension (the server
 * decides there; the gateway always makes a script a task then). `undefined`: run it as usual.
 */
export function scriptTaskAsked(
  server: Server,
  session: DownstreamSession,
  profile: GatewayProfile,
  params: CallToolRequest['params'],
  context: ServerContext,
): { ttl?: unknown } | undefined {
  if (!profile.runsScripts(params.name)) return undefined;
  if (session.era === '2025') {
    const task = (params as { task?: unknown }).task;
    return typeof task === 'object' && task !== null ? { ttl: (task as { ttl?: unknown }).ttl } : undefined;
  }
  // A retry (answers, a requestState) continues a call that was not a task.
  if (context.mcpReq.inputResponses !== undefined || context.mcpReq.requestState() !== undefined)
    return undefined;
  return declaresTasks(capabilitiesOf(server, context)) ? {} : undefined;
}

const ownerOf = (session: DownstreamSession): ScriptTaskOwner => {
  const { principal, client } = stateBinding(session, TASK_BINDING);
  return { principal, client };
};

/** The fields both eras' `Task` share: the id, the status and its times. */
function taskState(task: ScriptTask) {
  return {
    taskId: task.publicId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
  };
}

/** A task as a 2025-11-25 `Task`. */
function era2025Task(task: ScriptTask) {
  return {
    ...taskState(task),
    ttl: task.ttlMs,
    pollInterval: POLL_INTERVAL_MS,
  };
}

/** A task as the tasks extension's `Task` (2026-07-28), with its result or error once it has one. */
function era2026Task(task: ScriptTask, detailed: boolean) {
  return {
    ...taskState(task),
    ttlMs: task.ttlMs,
    pollIntervalMs: POLL_INTERVAL_MS,
    ...(detailed && task.status === 'completed' && task.result !== undefined ? { result: task.result } : {}),
    ...(detailed && task.status === 'failed' && task.error !== undefined ? { error: task.error } : {}),
  };
}

/**
 * Starts `run` (the `run_script` call's work) as a task of the caller, in the background, and
 * answers the era's `CreateTaskResult`. The script runs as a call of its own that no request
 * holds: its inner calls go through every policy as ever, but nobody can be asked for an
 * approval (the call declares no elicitation, so an approval inside it is refused and the
 * script gets a ToolError). `tasks/cancel` and the task's time to live stop the script and
 * its inner calls (the call's signal); so does the gateway closing. The task outlives the
 * request and its session.
 */
export function startScriptTask(
  scope: DownstreamCallScope,
  run: UpstreamWork<CallToolResult>,
  ttl: unknown,
): Record<string, unknown> {
  const { core, session, context } = scope;
  if (core.closing) throw new ProtocolError(ProtocolErrorCode.InternalError, 'the gateway is shutting down');
  const call = new DownstreamCall(session, 'tools/call', () => ({}));
  call.caller = callerOf(requestSession(session, context.http?.authInfo));
  const tasks = core.scriptTasks;
  const ttlMs = tasks.ttlFor(ttl);
  const task = tasks.create(ownerOf(session), ttlMs, (reason) => call.cancel(reason));
  task.publicId = core.requestStates.seal(
    { kind: 'script', replica: core.replicaId, task: task.id },
    stateBinding(session, TASK_BINDING),
    ttlMs,
  );
  // Not the session's call: a task goes on when its session ends; the gateway closing stops it.
  core.calls.add(call);
  void run(call)
    .then(
      (result) => tasks.finish(task.id, { result }),
      (error: unknown) => {
        const failure = toProtocolError(error);
        tasks.finish(task.id, {
          error: {
            code: failure.code,
            message: failure.message,
            ...(failure.data === undefined ? {} : { data: failure.data }),
          },
        });
      },
    )
    .finally(() => core.calls.delete(call));
  return session.era === '2025'
    ? era2025TaskAnswer(era2025Task(task))
    : { resultType: 'task', ...era2026Task(task, false) };
}

/** The params of a tasks/* request: a string `taskId`, anything else ignored. */
const taskParams: StandardSchemaV1<unknown, { taskId: string }> = {
  '~standard': {
    version: 1,
    vendor: 'mcptools',
    validate(value) {
      const params = value as Record<string, unknown> | undefined;
      return typeof params?.taskId === 'string'
        ? { value: params as { taskId: string } }
        : { issues: [{ message: 'taskId must be a string' }] };
    },
  },
};

const anyParams: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcptools',
    validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
  },
};

const unknownTask = (taskId: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown taskId: ${taskId}`);

/**
 * The script task a sealed `taskId` names for `session`'s principal and client. Anyone else,
 * and an id that is forged, expired or forgotten, gets `-32602` "Unknown taskId" with no
 * detail. A task of another replica that the request could not be forwarded to is refused
 * saying so (only its owner can open the id to learn that).
 */
export function openScriptTask(core: CallHost, session: DownstreamSession, taskId: string): ScriptTask {
  const opened = core.requestStates.open(taskId, stateBinding(session, TASK_BINDING));
  if (opened?.kind !== 'script') throw unknownTask(taskId);
  return scriptTaskOf(core, session, taskId, opened);
}

/** The task `opened` (a script task id already opened for `session`) names on this replica. */
export function scriptTaskOf(
  core: CallHost,
  session: DownstreamSession,
  taskId: string,
  opened: { replica: string; task: string },
): ScriptTask {
  if (opened.replica !== core.replicaId)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `taskId names a script task running on another gateway replica, which cannot be reached from this one`,
    );
  const task = core.scriptTasks.get(opened.task, ownerOf(session));
  if (task === undefined) throw unknownTask(taskId);
  return task;
}

/**
 * The tasks extension's `tasks/get`, `tasks/update` and `tasks/cancel` (2026-07-28) for a
 * script task: its state (with its result or error once terminal); an ack for an update (a
 * script task never asks for input, so every answer is ignored, as the extension says); an ack
 * for a cancel, which stops the script and its inner calls when it was still working.
 */
export function era2026ScriptTaskMethod(
  core: CallHost,
  method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
  task: ScriptTask,
): Record<string, unknown> {
  if (method === 'tasks/get') return era2026Task(task, true);
  if (method === 'tasks/cancel') core.scriptTasks.cancel(task.id);
  return {};
}

/**
 * On a 2025-era session whose profile serves `run_script`: declares task-augmented
 * `tools/call`, `tasks/list` and `tasks/cancel`, and serves `tasks/get`, `tasks/result`
 * (waits for the end, then answers exactly what the call would have: its result, or its
 * JSON-RPC error), `tasks/list` (this principal's and client's tasks) and `tasks/cancel`
 * (a task already ended is refused with `-32602`, as the protocol says).
 */
export function registerEra2025ScriptTasks(
  server: Server,
  core: CallHost,
  profile: GatewayProfile,
  session: DownstreamSession,
): void {
  if (session.era !== '2025' || !profile.servesScripts) return;
  server.registerCapabilities({ tasks: LEGACY_TASKS_CAPABILITY } as never);
  server.setRequestHandler('tasks/get' as never, { params: taskParams }, (async (params: {
    taskId: string;
  }) => era2025Task(openScriptTask(core, session, params.taskId))) as never);
  server.setRequestHandler('tasks/result' as never, { params: taskParams }, (async (
    params: { taskId: string },
    context: ServerContext,
  ) => {
    const task = openScriptTask(core, session, params.taskId);
    const aborted = new Promise<never>((_resolve, reject) => {
      const signal = context.mcpReq.signal;
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    await Promise.race([task.settled, aborted]);
    const related = { [RELATED_TASK]: { taskId: task.publicId } };
    if (task.status === 'completed' && task.result !== undefined)
      return { ...task.result, _meta: { ...task.result._meta, ...related } };
    if (task.status === 'failed' && task.error !== undefined)
      throw new ProtocolError(task.error.code, task.error.message, task.error.data);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `the task was cancelled (${task.statusMessage ?? 'by request'}): it has no result`,
    );
  }) as never);
  server.setRequestHandler('tasks/list' as never, { params: anyParams }, (async () => ({
    tasks: core.scriptTasks.list(ownerOf(session)).map(era2025Task),
  })) as never);
  server.setRequestHandler('tasks/cancel' as never, { params: taskParams }, (async (params: {
    taskId: string;
  }) => {
    const task = openScriptTask(core, session, params.taskId);
    if (!core.scriptTasks.cancel(task.id))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `the task has already ended (${task.status}): it cannot be cancelled`,
      );
    return era2025Task(task);
  }) as never);
}
