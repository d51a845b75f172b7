import { messageOf } from '../errors/message-of.js';
import { recordPolicyDecision } from '../telemetry/mcptools-metrics.js';
import { argumentIssues, argumentProblemOf } from '../tool/argument-validator.js';
import { type CallContext, contextOf } from '../tool/call-context.js';
import { executeWith } from '../tool/execute-with.js';
import type { Tool, ToolContext, ToolResult } from '../tool/tool.js';
import { approvalRequestOf, notifyResolution, resolveApproval } from './resolve-approval.js';
import { runBeforeHooks } from './run-before-hooks.js';
import type {
  AfterToolCallEvent,
  ApprovalHandler,
  ApprovalRequirement,
  ApprovalResolution,
  BeforeToolCallEvent,
  PersistedToolResultMessage,
  ToolCallDecision,
  ToolCallOutcome,
  ToolHookContext,
  ToolMiddleware,
  ToolResultPersistEvent,
} from './tool-call-hooks.js';
import { withHookTimeout } from './with-hook-timeout.js';

/** The text of an `isError` result (its text blocks joined), for `after_tool_call`'s `error`. */
function errorTextOf(result: ToolResult): string {
  const text = result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  return text === '' ? 'tool returned an error' : text;
}

function isEmpty(object: object): boolean {
  for (const _key in object) return false;
  return true;
}

/** The result of a call the pipeline stopped: an `isError` result whose text is the reason. */
function stoppedResult(
  reason: string,
  status: 'blocked' | 'denied' | 'failed',
  deniedBy: string,
): ToolResult {
  return { content: [{ type: 'text', text: reason }], details: { status, deniedBy, reason }, isError: true };
}

/** Lower-cased names a matcher covers, or `undefined` for all tools. */
function matcherSet(matcher: string[] | undefined): Set<string> | undefined {
  return matcher === undefined ? undefined : new Set(matcher.map((name) => name.trim().toLowerCase()));
}

/**
 * Why rewritten `params` do not fit `tool`'s schema, or `undefined`. A key the hooks added
 * that the schema does not declare is allowed for an in-process tool: hooks rewrite
 * host-owned parameters (OpenClaw's onepassword plugin adds its authorization nonce to its own
 * tool's closed schema). An MCP server would refuse it, so for MCP tools every issue counts.
 */
function rewriteProblem(tool: Tool, original: Record<string, unknown>, params: Record<string, unknown>) {
  const issues = argumentIssues(tool.parameters, params)?.filter(
    (issue) =>
      tool.source === 'mcp' ||
      issue.keyword !== 'additionalProperties' ||
      issue.path !== '' ||
      Object.hasOwn(original, issue.field),
  );
  return issues === undefined || issues.length === 0 ? undefined : argumentProblemOf(issues[0]!);
}

interface Registered {
  middleware: ToolMiddleware;
  order: number;
  matches: Set<string> | undefined;
}

/**
 * The tool-call pipeline of a {@link ToolRegistry}: middlewares (the library's own, OpenClaw
 * plugins' `before_tool_call` / `after_tool_call` / `tool_result_persist` hooks, and the
 * configured policies) around every call of every tool the registry hands out. Built only
 * when a first middleware is added; a registry without one hands out its tools unchanged.
 */
export class ToolPipeline {
  readonly #registered: Registered[] = [];
  #order = 0;
  /** Sorted by priority (higher first), registration order breaking ties. */
  #sorted: Registered[] = [];
  #onApproval: ApprovalHandler | undefined;
  /** `allow-always` answers, per asking middleware, tool and principal, for this process. */
  readonly #alwaysAllowed = new Set<string>();
  /** Wrapped tools, per context object and tool (a tool is wrapped once per context). */
  readonly #wrapped = new WeakMap<object, WeakMap<Tool, Tool>>();
  readonly #noContext = {};
  readonly #onError: (message: string, error: unknown) => void;

  constructor(options: { onError?: (message: string, error: unknown) => void } = {}) {
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Adds a middleware; returns the function that removes it. */
  use(middleware: ToolMiddleware): () => void {
    if (typeof middleware?.name !== 'string' || middleware.name === '')
      throw new TypeError('a tool middleware needs a non-empty "name"');
    for (const hook of ['beforeToolCall', 'afterToolCall', 'toolResultPersist', 'screenResult'] as const) {
      if (middleware[hook] !== undefined && typeof middleware[hook] !== 'function')
        throw new TypeError(`middleware "${middleware.name}": "${hook}" must be a function`);
    }
    if (middleware.matcher !== undefined) {
      if (
        !Array.isArray(middleware.matcher) ||
        middleware.matcher.length === 0 ||
        middleware.matcher.some(
          (name) => typeof name !== 'string' || name.trim() === '' || name.trim() === '*',
        )
      )
        throw new TypeError(
          `middleware "${middleware.name}": "matcher" must be a non-empty list of tool names (no wildcards); omit it to match every tool`,
        );
    }
    const entry: Registered = { middleware, order: this.#order++, matches: matcherSet(middleware.matcher) };
    this.#registered.push(entry);
    this.#sort();
    return () => {
      const index = this.#registered.indexOf(entry);
      if (index >= 0) this.#registered.splice(index, 1);
      this.#sort();
    };
  }

  /** Sets the host's approval handler (`undefined`: approvals are denied unless the call's context has one). */
  setApprovalHandler(handler: ApprovalHandler | undefined): void {
    this.#onApproval = handler;
  }

  /** `true` when at least one middleware is in place. */
  get active(): boolean {
    return this.#sorted.length > 0;
  }

  /**
   * `tool` with its `execute` running through the pipeline; the same object for the same
   * tool and context. `context` is what the tools were resolved with (hooks read its
   * `agentId`, `sessionKey`, `sessionId`, `runId`).
   */
  wrap(tool: Tool, context?: ToolContext): Tool {
    const key = context === undefined || isEmpty(context) ? this.#noContext : context;
    let byTool = this.#wrapped.get(key);
    if (byTool === undefined) {
      byTool = new WeakMap();
      this.#wrapped.set(key, byTool);
    }
    const known = byTool.get(tool);
    if (known !== undefined) return known;
    const wrapped: Tool = {
      ...tool,
      execute: (toolCallId, params, signal, onUpdate, call) =>
        this.#sorted.length === 0
          ? tool.execute(toolCallId, params, signal, onUpdate, call)
          : this.call(tool, context, params, contextOf(toolCallId, signal, onUpdate, call)),
    };
    byTool.set(tool, wrapped);
    return wrapped;
  }

  /**
   * Runs `tool_result_persist` handlers over a toolResult message a host is about to persist
   * (its transcript): synchronously, in priority order, each seeing the previous one's
   * message. A handler that throws or returns a promise is skipped (logged).
   */
  persistToolResult(
    event: ToolResultPersistEvent,
    context: Partial<ToolHookContext> = {},
  ): PersistedToolResultMessage {
    let message = event.message;
    for (const { middleware } of this.#sorted) {
      const handler = middleware.toolResultPersist;
      if (handler === undefined) continue;
      try {
        const hookContext: ToolHookContext = { toolName: event.toolName ?? '', ...context };
        const result = handler({ ...event, message }, hookContext);
        if (result instanceof Promise || typeof (result as { then?: unknown } | null)?.then === 'function') {
          Promise.resolve(result).catch(() => undefined);
          this.#fail(
            middleware,
            `tool_result_persist handler from ${middleware.name} returned a Promise; this hook is synchronous and the result was ignored`,
            undefined,
          );
          continue;
        }
        if (result && typeof result === 'object' && result.message && typeof result.message === 'object')
          message = result.message;
      } catch (error) {
        this.#fail(
          middleware,
          `tool_result_persist handler from ${middleware.name} failed: ${messageOf(error)}`,
          error,
        );
      }
    }
    return message;
  }

  /**
   * One call of `tool` through the pipeline (what a wrapped tool's `execute` does): the caller's
   * principal, approval handler and continuation are read from `call`, and `call` goes on to
   * the tool.
   */
  async call(
    tool: Tool,
    toolContext: ToolContext | undefined,
    params: Record<string, unknown>,
    call: CallContext,
  ): Promise<ToolResult> {
    const startedAt = Date.now();
    const started = performance.now();
    const { toolCallId, signal } = call;
    const principal = call.caller?.principal;
    const name = tool.name.toLowerCase();
    const matching = this.#sorted.filter((entry) => entry.matches === undefined || entry.matches.has(name));
    const original = params ?? {};
    const runId = typeof toolContext?.runId === 'string' ? toolContext.runId : undefined;
    const event: BeforeToolCallEvent = {
      toolName: tool.name,
      params: original,
      ...(toolCallId ? { toolCallId } : {}),
      ...(runId === undefined ? {} : { runId }),
    };
    const context = this.#hookContext(tool, toolContext, toolCallId, signal, principal, runId);
    if (call.continuation === true) context.continuation = true;
    const decisions: ToolCallDecision[] = [];
    let finalParams = original;
    let outcome: ToolCallOutcome = 'ok';
    let result: ToolResult | undefined;
    let thrown: unknown;
    let threw = false;
    const stop = (
      reason: string,
      status: 'blocked' | 'denied' | 'failed',
      by: string,
      how: ToolCallOutcome,
    ) => {
      outcome = how;
      result = stoppedResult(reason, status, by);
    };

    const before = matching
      .filter((entry) => entry.middleware.beforeToolCall !== undefined)
      .map((entry) => entry.middleware);
    if (before.length > 0) {
      const merged = await runBeforeHooks(before, event, context);
      decisions.push(...merged.decisions);
      if (merged.failure) {
        this.#onError(merged.failure.message, undefined);
        stop(
          `Tool call blocked because before_tool_call hook failed (${merged.failure.message})`,
          'failed',
          merged.failure.by,
          'failed-closed',
        );
      } else if (merged.block) {
        stop(
          merged.blockReason || `Tool call blocked by ${merged.blockedBy}`,
          'blocked',
          merged.blockedBy ?? 'hook',
          'blocked',
        );
      } else if (merged.requireApproval) {
        const requirement = merged.requireApproval;
        const resolution = await this.#ask(requirement, tool, call, principal);
        decisions.push({ by: requirement.pluginId, decision: resolution });
        if (resolution === 'allow-once' || resolution === 'allow-always') {
          if (merged.params !== undefined) finalParams = { ...original, ...merged.params };
        } else if (resolution === 'deny') {
          stop(
            `Denied: ${requirement.title}. The tool call did not run; do not retry it unless the user asks.`,
            'denied',
            requirement.pluginId,
            'denied',
          );
        } else {
          const why =
            resolution === 'timeout'
              ? 'Approval timed out'
              : signal?.aborted
                ? 'Approval cancelled (call aborted)'
                : 'Approval unavailable: nobody could be asked';
          stop(
            `${why}: ${requirement.title}. The tool call did not run.`,
            'denied',
            requirement.pluginId,
            'denied',
          );
        }
      } else if (merged.params !== undefined) {
        finalParams = { ...original, ...merged.params };
      }
      if (result === undefined && finalParams !== original) {
        // A rewrite must still fit the tool's schema: checked again, the rewriter named.
        const problem = rewriteProblem(tool, original, finalParams);
        if (problem) {
          const by = merged.paramsBy ?? 'hook';
          decisions.push({ by, decision: 'error', reason: problem.message });
          stop(
            `Tool call blocked: the arguments rewritten by the before_tool_call handler from ${by} do not fit the schema of ${tool.name}: ${problem.message}`,
            'failed',
            by,
            'failed-closed',
          );
        }
      }
    }

    if (result === undefined) {
      try {
        result = await executeWith(tool, finalParams, call);
        if (result?.isError === true) outcome = 'error';
        else if ((result?.details as { inputRequired?: unknown } | undefined)?.inputRequired === true)
          outcome = 'input-required';
      } catch (error) {
        threw = true;
        thrown = error;
        outcome = 'error';
      }
    }

    if (result !== undefined && !threw) {
      for (const { middleware } of matching) {
        if (middleware.screenResult === undefined) continue;
        try {
          const screened = await middleware.screenResult(result, context);
          if (screened === undefined) continue;
          decisions.push(...screened.decisions);
          const held = screened.requireApproval;
          if (held !== undefined) {
            // The result is held: the caller gets it only on an approval, and on anything else a
            // refusal that carries none of it (the tool did run).
            const requirement = { ...held, pluginId: middleware.name, onResult: true };
            const resolution = await this.#ask(requirement, tool, call, principal);
            decisions.push({ by: middleware.name, decision: resolution });
            if (resolution !== 'allow-once' && resolution !== 'allow-always') {
              const why =
                resolution === 'deny'
                  ? 'Denied'
                  : resolution === 'timeout'
                    ? 'Approval timed out'
                    : signal?.aborted
                      ? 'Approval cancelled (call aborted)'
                      : 'Approval unavailable: nobody could be asked';
              stop(
                `${why}: ${held.title}. The tool ran, but its result was withheld; do not retry it unless the user asks.`,
                'denied',
                middleware.name,
                'denied',
              );
              break;
            }
          }
          result = screened.result;
          if (screened.decisions.some((decision) => decision.decision === 'block')) outcome = 'blocked';
        } catch (error) {
          this.#onError(`result screening by ${middleware.name} failed: ${messageOf(error)}`, error);
          decisions.push({ by: middleware.name, decision: 'error' });
          stop(
            `Tool result withheld: screening by ${middleware.name} failed`,
            'failed',
            middleware.name,
            'failed-closed',
          );
        }
      }
    }

    const after = matching.filter((entry) => entry.middleware.afterToolCall !== undefined);
    if (after.length > 0) {
      const afterEvent: AfterToolCallEvent = {
        ...event,
        params: finalParams,
        ...(result === undefined ? {} : { result }),
        ...(threw ? { error: messageOf(thrown) } : result?.isError ? { error: errorTextOf(result) } : {}),
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        outcome,
        decisions,
        startedAt,
        ...(tool.server === undefined ? {} : { server: tool.server }),
        ...(tool.originalName === undefined ? {} : { originalName: tool.originalName }),
        ...(principal === undefined ? {} : { principal }),
        ...(call.continuation === true ? { continuation: true as const } : {}),
      };
      // Observe-only and concurrent; not awaited (OpenClaw dispatches it fire-and-forget).
      for (const { middleware } of after) this.#observe(middleware, afterEvent, context);
    }
    if (threw) throw thrown;
    return result!;
  }

  /**
   * Asks the call's (or the host's) approval handler to decide `requirement`, unless an
   * `allow-always` answer from the same asker, tool and principal stands; tells the hook and
   * the metrics how it ended.
   */
  async #ask(
    requirement: ApprovalRequirement & { pluginId: string },
    tool: Tool,
    call: CallContext,
    principal: string | undefined,
  ): Promise<ApprovalResolution> {
    const key = `${requirement.pluginId}\u0000${tool.name}\u0000${principal ?? ''}`;
    const request = approvalRequestOf(requirement, {
      toolName: tool.name,
      toolCallId: call.toolCallId,
      ...(principal === undefined ? {} : { principal }),
    });
    const resolution =
      this.#alwaysAllowed.has(key) && request.allowedDecisions.includes('allow-always')
        ? 'allow-always'
        : await resolveApproval(request, call.onApproval ?? this.#onApproval, tool, call.signal);
    notifyResolution(requirement, resolution, this.#onError);
    recordPolicyDecision({
      server: tool.server,
      tool: tool.name,
      decision: resolution === 'allow-once' || resolution === 'allow-always' ? 'approved' : 'denied',
      reason: 'approval',
    });
    if (resolution === 'allow-always') this.#alwaysAllowed.add(key);
    return resolution;
  }

  #observe(middleware: ToolMiddleware, event: AfterToolCallEvent, context: ToolHookContext): void {
    const handler = middleware.afterToolCall!;
    try {
      const run = () => handler(event, context);
      const value = middleware.runHandler ? middleware.runHandler(run) : run();
      if (value instanceof Promise || typeof (value as { then?: unknown } | null)?.then === 'function') {
        const pending = Promise.resolve(value);
        const bounded = middleware.timeoutMs ? withHookTimeout(pending, middleware.timeoutMs) : pending;
        bounded.catch((error: unknown) =>
          this.#fail(
            middleware,
            `after_tool_call handler from ${middleware.name} failed: ${messageOf(error)}`,
            error,
          ),
        );
      }
    } catch (error) {
      this.#fail(
        middleware,
        `after_tool_call handler from ${middleware.name} failed: ${messageOf(error)}`,
        error,
      );
    }
  }

  #fail(middleware: ToolMiddleware, message: string, error: unknown): void {
    try {
      middleware.onError?.(message, error);
      this.#onError(message, error);
    } catch {
      // A failing logger must not fail the call.
    }
  }

  #hookContext(
    tool: Tool,
    toolContext: ToolContext | undefined,
    toolCallId: string,
    signal: AbortSignal | undefined,
    principal: string | undefined,
    runId: string | undefined,
  ): ToolHookContext {
    const context: ToolHookContext = { toolName: tool.name };
    if (toolCallId) context.toolCallId = toolCallId;
    for (const key of ['agentId', 'sessionKey', 'sessionId'] as const) {
      const value = toolContext?.[key];
      if (typeof value === 'string') context[key] = value;
    }
    if (runId !== undefined) context.runId = runId;
    if (signal !== undefined) context.abortSignal = signal;
    if (principal !== undefined) context.principal = principal;
    if (tool.source !== undefined) context.source = tool.source;
    if (tool.server !== undefined) context.server = tool.server;
    if (tool.originalName !== undefined) context.originalName = tool.originalName;
    if (tool.annotations !== undefined) context.annotations = tool.annotations;
    return context;
  }

  #sort(): void {
    this.#sorted = [...this.#registered].sort(
      (left, right) =>
        (right.middleware.priority ?? 0) - (left.middleware.priority ?? 0) || left.order - right.order,
    );
  }
}
