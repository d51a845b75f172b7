import type { ApprovalDecision, ApprovalHandler } from '../../pipeline/tool-call-hooks.js';
import type { DownstreamCall } from './downstream-call.js';

/**
 * Approvals of a gateway call asked of the client whose call it is, as a form elicitation
 * with one `decision` field (the decisions the request offers): pushed to a 2025-era session,
 * an `input_required` round for a 2026-07-28 request (both through {@link DownstreamCall.ask}).
 * A client that did not declare elicitation is refused at once, and the approval denies; so
 * does any answer but `accept` with an offered decision.
 */
export function approvalThroughCaller(call: DownstreamCall): ApprovalHandler {
  return async (request, { signal }) => {
    const answer = (await call.ask(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: `${request.title}: ${request.description} (asked by ${request.pluginId} ${request.onResult === true ? 'after' : 'before'} ${request.toolName})`,
          requestedSchema: {
            type: 'object',
            properties: {
              decision: { type: 'string', title: 'Decision', enum: request.allowedDecisions },
            },
            required: ['decision'],
          },
        },
      },
      signal,
    )) as { action?: unknown; content?: { decision?: unknown } } | undefined;
    if (answer?.action !== 'accept') return 'deny';
    const decision = answer.content?.decision;
    return typeof decision === 'string' ? (decision as ApprovalDecision) : undefined;
  };
}
