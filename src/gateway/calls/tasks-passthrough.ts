import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { createdTaskOf, declaresTasks, TASKS_EXTENSION } from '../../mcp/created-tasks.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import { type DownstreamSession, sessionContext, stateBinding } from '../sessions/downstream-session.js';
import type { CallHost } from './call-host.js';
import { toProtocolError } from './protocol-error.js';
import { capabilitiesOf } from './serve-downstream-call.js';
import { era2026ScriptTaskMethod, scriptTaskOf } from './serve-script-tasks.js';

/** What a gateway task id is bound to besides the principal and client (never a call's method: a task id is no `requestState`). */
const TASK_BINDING = 'tasks';
/** How long a task id stays routable when its upstream gave no `ttlMs`, and the margin added to one it gave. */
const DEFAULT_TASK_ID_TTL_MS = 24 * 60 * 60_000;
const TASK_ID_MARGIN_MS = 60_000;

type TaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel';
/** The tasks methods passed through (SEP-2663); `tasks/result` and `tasks/list` are gone from it (-32601). */
const METHODS: readonly TaskMethod[] = ['tasks/get', 'tasks/update', 'tasks/cancel'];

/** The params of a tasks/* request: a string `taskId`, anything else passed on. */
const taskParams: StandardSchemaV1<unknown, Record<string, unknown> & { taskId: string }> = {
  '~standard': {
    version: 1,
    vendor: 'mcptools',
    validate(value) {
      const params = value as Record<string, unknown> | undefined;
      return typeof params?.taskId === 'string'
        ? { value: params as Record<string, unknown> & { taskId: string } }
        : { issues: [{ message: 'taskId must be a string' }] };
    },
  },
};

/** Whether some upstream a 2026-07-28 `session` may use offers the tasks extension (then the gateway advertises it). */
function tasksOffered(core: CallHost, profile: GatewayProfile, session: DownstreamSession): boolean {
  const tasks = core.hub.tasks;
  // A 2026-07-28 extension: a 2025-era session is offered nothing new.
  if (tasks === undefined || session.era !== '2026-07-28') return false;
  return core.hub.servers().some((server) => profile.serves(server, session) && tasks.offers(server));
}

function refuseUndeclared(server: Server, context: ServerContext, what: string): void {
  if (!declaresTasks(capabilitiesOf(server, context)))
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never,
      `${what} needs the ${TASKS_EXTENSION} extension, which this request's client did not declare`,
    );
}

/**
 * Tasks passthrough (the `io.modelcontextprotocol/tasks` extension, SEP-2663) on one gateway
 * `server`: when an upstream the session may use offers the extension, or the profile serves
 * `run_script` (which the gateway runs as a task itself), the gateway advertises it and serves
 * `tasks/get`, `tasks/update` and `tasks/cancel`, each routed by its task id to the upstream
 * that created the task or to the script task of this replica — refused with -32021 to a client
 * that did not declare the extension (session-level or in the request's envelope), with -32602
 * for an id the gateway did not hand out to this principal and client. Otherwise nothing is
 * registered or advertised (2025-era sessions: see `registerEra2025ScriptTasks`).
 */
export function registerTasksPassthrough(
  server: Server,
  core: CallHost,
  profile: GatewayProfile,
  session: DownstreamSession,
): void {
  const upstream = tasksOffered(core, profile, session);
  if (!upstream && !(session.era === '2026-07-28' && profile.servesScripts)) return;
  const tasks = core.hub.tasks;
  server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } } as never);
  for (const method of METHODS)
    server.setRequestHandler(method as never, { params: taskParams }, (async (
      params: Record<string, unknown> & { taskId: string },
      context: ServerContext,
    ) => {
      refuseUndeclared(server, context, method);
      const opened = core.requestStates.open(params.taskId, stateBinding(session, TASK_BINDING));
      if (opened?.kind === 'script')
        return era2026ScriptTaskMethod(core, method, scriptTaskOf(core, session, params.taskId, opened));
      if (tasks === undefined || opened?.kind !== 'task' || !profile.serves(opened.server, session))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown taskId: ${params.taskId}`);
      const { _meta: _envelope, ...rest } = params;
      // The SDK lifts a request's `inputResponses` (tasks/update carries them) out of its params.
      const inputResponses = context.mcpReq.inputResponses;
      if (inputResponses !== undefined) rest.inputResponses = inputResponses;
      let answer: Record<string, unknown>;
      try {
        answer = await tasks.request(
          opened.server,
          method,
          { ...rest, taskId: opened.task },
          { signal: context.mcpReq.signal, context: sessionContext(session, context.mcpReq.signal) },
        );
      } catch (error) {
        throw toProtocolError(error);
      }
      // The task as its client knows it: under the gateway's id.
      return 'taskId' in answer ? { ...answer, taskId: params.taskId } : answer;
    }) as never);
}

/**
 * The downstream answer for a tool result of upstream `origin` that carries a
 * `CreateTaskResult` (see `admitCreatedTasks`): the upstream's task, flat and untouched but for
 * its `taskId`, which becomes a gateway task id (sealed: the upstream and its id, bound to the
 * caller's principal and OAuth client, valid for the task's `ttlMs` and a minute; opened by any replica with the
 * same `requestStateKey`). `undefined` for any other result.
 */
export function createdTaskAnswer(
  core: CallHost,
  server: Server,
  session: DownstreamSession,
  context: ServerContext,
  origin: string,
  result: { _meta?: Record<string, unknown> },
): Record<string, unknown> | undefined {
  const task = createdTaskOf(result);
  if (task === undefined) return undefined;
  if (!declaresTasks(capabilitiesOf(server, context)) || typeof task.taskId !== 'string')
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `server "${origin}" answered a task the gateway cannot hand on (the caller did not declare ${TASKS_EXTENSION}, or the task has no taskId)`,
    );
  const ttlMs =
    typeof task.ttlMs === 'number' && task.ttlMs > 0
      ? task.ttlMs + TASK_ID_MARGIN_MS
      : DEFAULT_TASK_ID_TTL_MS;
  const taskId = core.requestStates.seal(
    { kind: 'task', server: origin, task: task.taskId },
    stateBinding(session, TASK_BINDING),
    ttlMs,
  );
  return { ...task, taskId };
}
