import type { ApprovalRequirement } from '../tool/approval.js';
import type { Tool, ToolContext, ToolResult } from '../tool/tool.js';

// The approval types belong to the call context (a caller may decide approvals); re-exported here,
// where hook authors look for them.
export type {
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  ApprovalRequirement,
  ApprovalResolution,
} from '../tool/approval.js';

/**
 * What a `before_tool_call` handler receives (OpenClaw's event, with what mcptools knows
 * truthfully): the exposed tool name, an isolated copy of the call's original arguments, the
 * call id, and the run id when the host gave one in the context.
 */
export interface BeforeToolCallEvent {
  toolName: string;
  params: Record<string, unknown>;
  toolCallId?: string;
  runId?: string;
}

/**
 * The second argument of a tool hook (OpenClaw's `ctx`): the tool, the call id and what the
 * host put in the {@link ToolContext} it resolved the tools with (`agentId`, `sessionKey`,
 * `sessionId`, `runId`), the call's `abortSignal`, and `principal` when the call came
 * through the gateway with an authenticated caller. Nothing else is invented.
 */
export interface ToolHookContext {
  toolName: string;
  toolCallId?: string;
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  runId?: string;
  abortSignal?: AbortSignal;
  /** Who is calling, when known (the gateway's authenticated subject). */
  principal?: string;
  /** mcptools metadata of the tool: `native`, `plugin`, `mcp` or `router`. */
  source?: Tool['source'];
  /** The MCP server (or plugin id) the tool comes from. */
  server?: string;
  /** The tool's name at its origin, before namespacing. */
  originalName?: string;
  /** The tool's MCP behaviour hints. */
  annotations?: Tool['annotations'];
  /**
   * Beyond OpenClaw: this call continues a 2026-07-28 upstream's `input_required` round relayed
   * by the gateway (the client's retry), whose first round was already counted.
   */
  continuation?: boolean;
}

/** What a `before_tool_call` handler may return (`undefined` / `null`: no decision). */
export interface BeforeToolCallResult {
  /** Arguments to merge over the original ones (each handler sees the original). */
  params?: Record<string, unknown>;
  /** `true` ends the call here with `blockReason`; `false` is no decision. */
  block?: boolean;
  blockReason?: string;
  /** The first one wins and freezes the arguments chosen so far. */
  requireApproval?: ApprovalRequirement;
}

/** One policy decision taken during a call, in order (the audit log's `decisions`). */
export interface ToolCallDecision {
  /** The plugin id or middleware name that decided. */
  by: string;
  decision:
    | 'block'
    | 'params'
    | 'requireApproval'
    | 'allow-once'
    | 'allow-always'
    | 'deny'
    | 'timeout'
    | 'cancelled'
    | 'error'
    | 'redact'
    | 'annotate';
  reason?: string;
}

/** How a call ended. */
/** How a call ended (`input-required`: an upstream asked the client for input; the client's retry continues it). */
export type ToolCallOutcome = 'ok' | 'error' | 'blocked' | 'denied' | 'failed-closed' | 'input-required';

/**
 * What an `after_tool_call` handler receives: OpenClaw's event (`toolName`, final `params`,
 * `toolCallId`, `runId`, `result`, `error`, `durationMs`) plus the record the audit log
 * writes (`outcome`, `decisions`, `server`, `originalName`, `principal`, `startedAt`).
 */
export interface AfterToolCallEvent extends BeforeToolCallEvent {
  result?: ToolResult;
  /** The error text when the tool failed (an `isError` result or a throw). */
  error?: string;
  durationMs: number;
  outcome: ToolCallOutcome;
  decisions: ToolCallDecision[];
  server?: string;
  originalName?: string;
  principal?: string;
  /** When the call started (ms since the epoch). */
  startedAt: number;
  /** Set on a round that continues a relayed `input_required` (see {@link ToolHookContext.continuation}). */
  continuation?: true;
}

/** A `before_tool_call` handler. */
export type BeforeToolCallHandler = (
  event: BeforeToolCallEvent,
  context: ToolHookContext,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler written as statements returns void
) => BeforeToolCallResult | undefined | null | void | Promise<BeforeToolCallResult | undefined | null | void>;

/** An `after_tool_call` handler (observe-only; its return value is ignored). */
export type AfterToolCallHandler = (event: AfterToolCallEvent, context: ToolHookContext) => unknown;

/** A toolResult message a host is about to persist (OpenClaw's transcript message). */
export type PersistedToolResultMessage = Record<string, unknown>;

/** What a `tool_result_persist` handler receives. */
export interface ToolResultPersistEvent {
  toolName?: string;
  toolCallId?: string;
  message: PersistedToolResultMessage;
  isSynthetic?: boolean;
}

/** A synchronous `tool_result_persist` handler: `{ message }` replaces the message. */
export type ToolResultPersistHandler = (
  event: ToolResultPersistEvent,
  context: ToolHookContext,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler written as statements returns void
) => { message?: PersistedToolResultMessage } | undefined | null | void;

/**
 * One middleware of the tool-call pipeline: `registry.use(middleware)`. The contract is
 * OpenClaw's for plugin hooks: higher `priority` runs first (registration order breaks ties),
 * `matcher` limits it to some exposed tool names, `timeoutMs` bounds each asynchronous handler
 * (default 15 000 for `beforeToolCall`; a throw or timeout blocks the call).
 *
 * @example
 * registry.use({
 *   name: 'no-deletes',
 *   beforeToolCall: (event) =>
 *     event.toolName.includes('delete') ? { block: true, blockReason: 'Deleting is not allowed here' } : undefined,
 * });
 */
export interface ToolMiddleware {
  /** Who decides: shown in block reasons, errors and the audit log (a plugin's id for plugin hooks). */
  name: string;
  /** Higher runs first. Default 0. */
  priority?: number;
  /** Exposed tool names this middleware handles (case-insensitive); omit for all tools. */
  matcher?: string[];
  /** Budget of each asynchronous handler, in ms. Default 15 000 for `beforeToolCall`, none for `afterToolCall`. */
  timeoutMs?: number;
  beforeToolCall?: BeforeToolCallHandler;
  afterToolCall?: AfterToolCallHandler;
  toolResultPersist?: ToolResultPersistHandler;
  /**
   * Screens the result of each call before anyone else sees it (the caller, `afterToolCall`,
   * the audit log): returns the result to give instead and the decisions taken (recorded with
   * the call), or nothing to leave it as it is. A throw withholds the result (fail closed).
   */
  screenResult?: (
    result: ToolResult,
    context: ToolHookContext,
  ) => ScreenedResult | undefined | Promise<ScreenedResult | undefined>;
  /** Told of each failure of a handler (throw, timeout, garbage result); never throws. */
  onError?: (message: string, error: unknown) => void;
  /** Runs each handler (a plugin's fault guard puts its code under the plugin's name). */
  runHandler?: <T>(work: () => T) => T;
}

/** What a {@link ToolMiddleware.screenResult} handler decided. */
export interface ScreenedResult {
  result: ToolResult;
  decisions: ToolCallDecision[];
  /**
   * Hold `result` until the call's approval handler (or the host's) approves it: approved, the
   * caller gets `result`; denied, timed out or unanswerable, a refusal that carries none of it.
   */
  requireApproval?: Omit<ApprovalRequirement, 'pluginId' | 'onResult'>;
}
