import type { InputRequiredResult, Result } from '@modelcontextprotocol/server';
import type { RequestStateSeal } from '../../cluster/request-state-seal.js';
import type { McpToolHub } from '../../mcp/hub-types.js';
import type { DownstreamSession } from '../sessions/downstream-session.js';
import type { DownstreamCall } from './downstream-call.js';
import type { ParkedScriptBytes } from './parked-script-bytes.js';
import type { RelayContinuations } from './relay-continuations.js';
import type { ScriptTasks } from './script-tasks.js';

/**
 * What a downstream call needs of the state every session of one gateway shares (the gateway's
 * core implements it): the calls in flight and parked, the sealed `requestState`, code-mode
 * scripts and tasks. Declared here, by the folder that needs it, so that calls never import
 * the top of the gateway.
 */
export interface CallHost {
  /** The MCP hub the gateway serves. */
  readonly hub: McpToolHub;
  /** Every call in flight. */
  readonly calls: Set<DownstreamCall>;
  /** The gateway is shutting down: no call starts. */
  readonly closing: boolean;
  /** Names this process among replicas sharing a `requestStateKey` (a parked call's state names it). */
  readonly replicaId: string;
  /** Seals and opens the 2026-07-28 `requestState`. */
  readonly requestStates: RequestStateSeal;
  /** The memory of code-mode scripts waiting for their callers' answers, per principal. */
  readonly parkedScripts: ParkedScriptBytes;
  /** The `run_script` calls this replica runs as tasks. */
  readonly scriptTasks: ScriptTasks;
  /** The retries of relayed `input_required` rounds this gateway has seen. */
  readonly relayContinuations: RelayContinuations;
  /** `call` is in flight (the gateway and its session count it). */
  beginCall(call: DownstreamCall): void;
  /** `call` is over. */
  endCall(call: DownstreamCall): void;
  /** One 2026-07-28 round of `call`: a final answer, a relayed `input_required`, or `call` parked. */
  round(call: DownstreamCall, signal: AbortSignal): Promise<Result | InputRequiredResult>;
  /** The parked call `id` at its round `round`, if `session` parked it with a request of `method`. */
  takeParked(
    id: string,
    session: DownstreamSession,
    method: DownstreamCall['method'],
    round: number,
  ): DownstreamCall | undefined;
}
