import type { ToolDescription } from './tool-description.js';

/** A decision on an approval request (OpenClaw's plugin approval resolutions). */
export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';

/** How an approval request ended, as `onResolution` hears it. */
export type ApprovalResolution = ApprovalDecision | 'timeout' | 'cancelled';

/** `requireApproval` of a `before_tool_call` result (OpenClaw's shape). */
export interface ApprovalRequirement {
  title: string;
  description: string;
  severity?: 'info' | 'warning' | 'critical';
  /** Default 120 000, at most 600 000. An unresolved request denies. */
  timeoutMs?: number;
  /** Deprecated in OpenClaw and ignored: unresolved approvals always deny. */
  timeoutBehavior?: 'allow' | 'deny';
  /** Default: all three. */
  allowedDecisions?: ApprovalDecision[];
  /** Stamped by the pipeline with the id of the plugin (or middleware) that asked. */
  pluginId?: string;
  /**
   * Beyond OpenClaw: the approval holds a result the tool already returned (a result guard),
   * rather than a call about to run. Set by the pipeline.
   */
  onResult?: boolean;
  /** Display-only facts about the action (OpenClaw's `scope`). */
  scope?: Record<string, unknown>;
  onResolution?: (decision: ApprovalResolution) => void | Promise<void>;
}

/** An approval the pipeline asks the host (or the caller) to decide. */
export interface ApprovalRequest extends Omit<ApprovalRequirement, 'onResolution' | 'timeoutBehavior'> {
  pluginId: string;
  toolName: string;
  toolCallId?: string;
  /** The decisions that may be given (default all three). */
  allowedDecisions: ApprovalDecision[];
  timeoutMs: number;
  severity: 'info' | 'warning' | 'critical';
  principal?: string;
}

/**
 * Decides an approval request: return `allow-once`, `allow-always` or `deny`. Anything else,
 * a throw, or no answer before `signal` aborts (the request's timeout or the call's own
 * signal) denies.
 */
export type ApprovalHandler = (
  request: ApprovalRequest,
  options: { tool: ToolDescription; signal: AbortSignal },
) => ApprovalDecision | undefined | Promise<ApprovalDecision | undefined>;
