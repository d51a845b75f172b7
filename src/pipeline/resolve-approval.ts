import type { Tool } from '../tool/tool.js';
import type {
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  ApprovalRequirement,
  ApprovalResolution,
} from './tool-call-hooks.js';

/** OpenClaw's default and largest approval timeouts. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;
export const MAX_APPROVAL_TIMEOUT_MS = 600_000;

const ALL_DECISIONS: ApprovalDecision[] = ['allow-once', 'allow-always', 'deny'];

/** What the caller is asked, from a hook's `requireApproval`. */
export function approvalRequestOf(
  requirement: ApprovalRequirement & { pluginId: string },
  call: { toolName: string; toolCallId?: string; principal?: string },
): ApprovalRequest {
  const timeout = requirement.timeoutMs;
  const allowed = Array.isArray(requirement.allowedDecisions)
    ? ALL_DECISIONS.filter((decision) => requirement.allowedDecisions!.includes(decision))
    : ALL_DECISIONS;
  return {
    pluginId: requirement.pluginId,
    title: requirement.title,
    description: requirement.description,
    severity: requirement.severity ?? 'warning',
    timeoutMs:
      typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0
        ? Math.min(Math.floor(timeout), MAX_APPROVAL_TIMEOUT_MS)
        : DEFAULT_APPROVAL_TIMEOUT_MS,
    allowedDecisions: allowed.length > 0 ? allowed : ['deny'],
    toolName: call.toolName,
    ...(call.toolCallId === undefined ? {} : { toolCallId: call.toolCallId }),
    ...(call.principal === undefined ? {} : { principal: call.principal }),
    ...(requirement.scope === undefined ? {} : { scope: requirement.scope }),
    ...(requirement.onResult === true ? { onResult: true } : {}),
  };
}

/**
 * Asks `handler` to decide `request` and returns the resolution: only an `allow-once`,
 * `allow-always` or `deny` the request offered counts; anything else, or no answer within the
 * request's timeout, is `timeout`; the call's own signal aborting is `cancelled`; no handler,
 * or a handler that throws (nobody could be asked), is `cancelled` too. Unresolved approvals deny.
 */
export async function resolveApproval(
  request: ApprovalRequest,
  handler: ApprovalHandler | undefined,
  tool: Tool,
  signal: AbortSignal | undefined,
): Promise<ApprovalResolution> {
  if (handler === undefined) return 'cancelled';
  if (signal?.aborted) return 'cancelled';
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ApprovalResolution>((resolve) => {
    onAbort = () => resolve(signal?.aborted ? 'cancelled' : 'timeout');
    combined.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const answer = Promise.resolve()
      .then(() => handler(request, { tool, signal: combined }))
      .then(
        (decision): ApprovalResolution =>
          decision !== undefined && request.allowedDecisions.includes(decision) ? decision : 'timeout',
        // A handler that fails (a client that cannot be asked) leaves nobody to answer.
        (): ApprovalResolution => 'cancelled',
      );
    return await Promise.race([answer, aborted]);
  } finally {
    if (onAbort) combined.removeEventListener('abort', onAbort);
  }
}

/** Calls a hook's `onResolution` without letting it fail the call. */
export function notifyResolution(
  requirement: ApprovalRequirement,
  resolution: ApprovalResolution,
  onError: (message: string, error: unknown) => void,
): void {
  const callback = requirement.onResolution;
  if (typeof callback !== 'function') return;
  try {
    Promise.resolve(callback(resolution)).catch((error: unknown) =>
      onError(`onResolution of ${requirement.pluginId ?? 'a hook'} failed`, error),
    );
  } catch (error) {
    onError(`onResolution of ${requirement.pluginId ?? 'a hook'} failed`, error);
  }
}
