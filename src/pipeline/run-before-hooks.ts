import { messageOf } from '../errors/message-of.js';
import type {
  ApprovalRequirement,
  BeforeToolCallEvent,
  BeforeToolCallResult,
  ToolCallDecision,
  ToolHookContext,
  ToolMiddleware,
} from './tool-call-hooks.js';
import { withHookTimeout } from './with-hook-timeout.js';

/** OpenClaw's default budget of one `before_tool_call` handler. */
export const DEFAULT_BEFORE_HOOK_TIMEOUT_MS = 15_000;

/** The merged decision of the `before_tool_call` handlers of one call. */
export interface BeforeHooksOutcome {
  /** Arguments to merge over the original ones (frozen at the first approval request). */
  params?: Record<string, unknown>;
  /** Who returned the `params` that won. */
  paramsBy?: string;
  block?: boolean;
  blockReason?: string;
  blockedBy?: string;
  requireApproval?: ApprovalRequirement & { pluginId: string };
  /** Set when a handler threw, timed out or returned garbage: the call fails closed. */
  failure?: { by: string; message: string };
  decisions: ToolCallDecision[];
}

/** An object literal (its prototype `Object.prototype` or `null`): what a hook result must be, never a class instance. */
function isObjectLiteral(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Why `value` is not a `before_tool_call` result, or `undefined` when it is one. */
/** The first line of a thrown value's message: a hook's error is reported on one line. */
function firstLineOf(error: unknown): string {
  return messageOf(error).split('\n')[0] ?? 'unknown error';
}

function garbageIn(value: unknown): string | undefined {
  if (!isObjectLiteral(value))
    return `returned ${Array.isArray(value) ? 'an array' : typeof value}, not an object`;
  if (value.params !== undefined && !isObjectLiteral(value.params)) return '"params" is not an object';
  if (value.block !== undefined && typeof value.block !== 'boolean') return '"block" is not a boolean';
  if (value.blockReason !== undefined && typeof value.blockReason !== 'string')
    return '"blockReason" is not a string';
  const approval = value.requireApproval;
  if (approval !== undefined) {
    if (!isObjectLiteral(approval)) return '"requireApproval" is not an object';
    if (typeof approval.title !== 'string' || typeof approval.description !== 'string')
      return '"requireApproval" needs a string "title" and "description"';
  }
  return undefined;
}

/**
 * Runs the `before_tool_call` handlers of `middlewares` (already sorted and matched) with
 * OpenClaw's semantics: one after another; each sees its own copy of the original event;
 * the last `params` wins until an approval is requested; the first `requireApproval` wins
 * and freezes the params (later handlers can still block); `block: true` ends the run. A
 * handler that throws, times out or returns garbage fails the call closed.
 */
export async function runBeforeHooks(
  middlewares: readonly ToolMiddleware[],
  event: BeforeToolCallEvent,
  context: ToolHookContext,
): Promise<BeforeHooksOutcome> {
  const outcome: BeforeHooksOutcome = { decisions: [] };
  for (const middleware of middlewares) {
    const handler = middleware.beforeToolCall;
    if (handler === undefined) continue;
    let value: unknown;
    try {
      const own = { ...event, params: structuredClone(event.params) };
      const run = () => handler(own, context);
      const returned: unknown = middleware.runHandler ? middleware.runHandler(run) : run();
      // A synchronous answer needs no timer; a promise gets the handler's budget.
      value =
        typeof (returned as { then?: unknown } | null)?.then === 'function'
          ? await withHookTimeout(
              Promise.resolve(returned),
              middleware.timeoutMs ?? DEFAULT_BEFORE_HOOK_TIMEOUT_MS,
            )
          : returned;
    } catch (error) {
      const message = `before_tool_call handler from ${middleware.name} failed: ${firstLineOf(error)}`;
      middleware.onError?.(message, error);
      outcome.failure = { by: middleware.name, message };
      outcome.decisions.push({ by: middleware.name, decision: 'error', reason: message });
      return outcome;
    }
    if (value === undefined || value === null) continue;
    const garbage = garbageIn(value);
    if (garbage !== undefined) {
      const message = `before_tool_call handler from ${middleware.name} ${garbage}`;
      middleware.onError?.(message, value);
      outcome.failure = { by: middleware.name, message };
      outcome.decisions.push({ by: middleware.name, decision: 'error', reason: message });
      return outcome;
    }
    const result = value as BeforeToolCallResult;
    if (result.params !== undefined && outcome.requireApproval === undefined) {
      outcome.params = result.params;
      outcome.paramsBy = middleware.name;
      outcome.decisions.push({ by: middleware.name, decision: 'params' });
    }
    if (result.blockReason !== undefined) outcome.blockReason = result.blockReason;
    if (result.requireApproval !== undefined && outcome.requireApproval === undefined) {
      outcome.requireApproval = { ...result.requireApproval, pluginId: middleware.name };
      // The first approval freezes the params chosen so far: a snapshot, so a handler
      // mutating its own object afterwards changes nothing.
      if (outcome.params !== undefined) outcome.params = structuredClone(outcome.params);
      outcome.decisions.push({
        by: middleware.name,
        decision: 'requireApproval',
        reason: result.requireApproval.title,
      });
    }
    if (result.block === true) {
      outcome.block = true;
      outcome.blockedBy = middleware.name;
      outcome.decisions.push({ by: middleware.name, decision: 'block', reason: outcome.blockReason });
      return outcome;
    }
  }
  return outcome;
}
