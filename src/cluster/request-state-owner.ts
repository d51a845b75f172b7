import type { Caller } from '../tool/call-context.js';
import type { RequestStateSeal } from './request-state-seal.js';

/** The downstream methods whose 2026-07-28 retries carry the gateway's `requestState`. */
const CALL_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);
/** The tasks extension's methods: their `taskId` may name a script task running on one replica. */
const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
/** What a gateway task id is bound to besides the principal and client (see tasks-passthrough). */
const TASK_BINDING = 'tasks';

/**
 * The replica holding the call a 2026-07-28 retry continues, read from the retry's JSON-RPC
 * body (`{ method, params: { requestState } }`): the `replicaId` of the gateway that parked it
 * (a call waiting on a 2025-era upstream's request), or `undefined` when no replica holds it —
 * not a retry, a relayed upstream `input_required` (any replica continues it), or a state that
 * does not open for `who` (tampered, expired, another key, method, principal or client; the
 * replica that receives it refuses it). A `tasks/get|update|cancel` of a `run_script` task names
 * the replica running the script the same way. Cluster mode forwards a retry whose replica is another
 * live one to it; synchronous and free of I/O (one AES-GCM open), so it can sit on every request.
 *
 * @example
 * const owner = requestStateReplica(seal, body, who);
 * if (owner !== undefined && owner !== replicaId) return forwardTo(owner, request);
 */
export function requestStateReplica(seal: RequestStateSeal, body: unknown, who: Caller): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (typeof method !== 'string') return undefined;
  if (TASK_METHODS.has(method)) {
    // A `run_script` the gateway runs as a task lives on the replica that started it.
    const taskId = (params as { taskId?: unknown } | undefined)?.taskId;
    if (typeof taskId !== 'string') return undefined;
    const task = seal.open(taskId, { method: TASK_BINDING, principal: who.principal, client: who.clientId });
    return task?.kind === 'script' ? task.replica : undefined;
  }
  if (!CALL_METHODS.has(method)) return undefined;
  const state = (params as { requestState?: unknown } | undefined)?.requestState;
  if (typeof state !== 'string') return undefined;
  const payload = seal.open(state, { method, principal: who.principal, client: who.clientId });
  return payload?.kind === 'parked' ? payload.replica : undefined;
}
