import type { ApprovalDecision, ApprovalHandler } from '../../pipeline/tool-call-hooks.js';
import { truncateUtf8 } from '../../tool/truncate.js';

/** How much of the first call's arguments an approval shows, in bytes of JSON. */
const SHOWN_ARGUMENT_BYTES = 1_000;

/**
 * The approvals of one script: the first approval asked for a tool goes to `ask` (the caller's
 * own handler) naming the script and the tool and showing that first call's arguments; its
 * `allow-once` or `deny` then answers every later call of that tool by the same asker in this
 * script, so a loop over a write tool asks once, not per iteration. Concurrent first calls
 * share the one question. `allow-always` is left to the pipeline, which remembers it itself.
 * Later calls' arguments are not shown to anyone; argument guards still see every call.
 */
export function scriptApprovals(
  scriptId: string,
  ask: ApprovalHandler,
  argumentsOf: (toolCallId: string | undefined) => Record<string, unknown> | undefined,
): ApprovalHandler {
  const decided = new Map<string, Promise<ApprovalDecision | undefined>>();
  return (request, options) => {
    const key = `${request.pluginId}\u0000${request.toolName}`;
    const known = decided.get(key);
    if (known !== undefined) return known;
    const shown = truncateUtf8(JSON.stringify(argumentsOf(request.toolCallId) ?? {}), SHOWN_ARGUMENT_BYTES);
    const answer = Promise.resolve(
      ask(
        {
          ...request,
          description: `${request.description} (script ${scriptId}: this answer covers every call of ${request.toolName} in this script; the arguments of later calls are not shown. First call's arguments: ${shown.text}${shown.truncated ? '…' : ''})`,
        },
        options,
      ),
    );
    const remembered = answer.then(
      (decision) => {
        // Only a decision is remembered: a question nobody answered is asked again.
        if (decision !== 'allow-once' && decision !== 'deny') decided.delete(key);
        return decision;
      },
      (error: unknown) => {
        decided.delete(key);
        throw error;
      },
    );
    decided.set(key, remembered);
    return remembered;
  };
}
