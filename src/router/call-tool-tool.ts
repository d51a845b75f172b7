import type { ToolRegistry } from '../pipeline/tool-registry.js';
import { suggestToolNames } from '../registry/suggest-tool-names.js';
import { validateArguments } from '../tool/argument-validator.js';
import { type CallContext, contextOf } from '../tool/call-context.js';
import { executeWith } from '../tool/execute-with.js';
import type { JsonSchemaObject, Tool, ToolResult } from '../tool/tool.js';
import { classifyRouterError, routerError } from './error-taxonomy.js';
import type { ResolvedRouterOptions } from './router-options.js';
import { errorOutcome, renderRouterResult } from './router-result.js';

const parameters: JsonSchemaObject = {
  type: 'object',
  properties: { name: { type: 'string' }, arguments: { type: 'object' } },
  required: ['name'],
};

/** Finds an enabled tool by exposed name, running factories only when a factory declared it. */
async function findTool(
  registry: ToolRegistry,
  name: string,
  settings: ResolvedRouterOptions,
): Promise<Tool | undefined> {
  const direct = registry.get(name);
  if (direct || !registry.has(name)) return direct;
  const resolved = await registry.resolveAll(settings.context);
  return resolved.find((tool) => tool.name === name);
}

/** One call of a tool by its exposed name, as `call_tool` makes it. */
export interface RoutedToolCall {
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The caller's call context (who calls, signal, progress, approvals, the upstream's needs). */
  context: CallContext;
  /**
   * Whether this is the only upstream call its caller makes (`call_tool`), so a gateway's
   * 2026-07-28 caller may be handed the upstream's own `input_required`; a script's inner
   * calls are many, so theirs is answered through the caller instead.
   */
  only: boolean;
}

/** Runs a {@link RoutedToolCall}: every check `call_tool` makes, then the target; failures are results. */
export type RouteToolCall = (call: RoutedToolCall) => Promise<ToolResult>;

/**
 * The one path by which router tools call a tool by name (`call_tool`, and each inner call of
 * a code-mode script): the caller's view (`toolVisible`: a hidden tool answers as an unknown
 * one), router tools refused, plan mode (read-only tools only), `ownerOnly`, arguments
 * checked against the target's schema, then the target's own `execute` (the registry's
 * pipeline: policies, hooks, approvals, audit, telemetry).
 */
export function createRouteToolCall(
  registry: ToolRegistry,
  settings: ResolvedRouterOptions,
  routerNames: Set<string>,
  /** Why a name that is not served is held back (pins), for the error the model reads. */
  refusal: (name: string) => string | undefined = () => undefined,
): RouteToolCall {
  const name = settings.names.callTool;
  return async ({ toolCallId, name: targetName, arguments: args, context: call, only }) => {
    const startedAt = performance.now();
    const fail = (...args: Parameters<typeof errorOutcome>) =>
      renderRouterResult(errorOutcome(...args), settings.format, startedAt);
    const context = { name: targetName };
    const found = routerNames.has(targetName) ? undefined : await findTool(registry, targetName, settings);
    // A tool the sender may not see is unknown to it: same answer, no hint that it exists.
    const sees = settings.toolVisible;
    const target = found !== undefined && sees !== undefined && !sees(found, call.caller) ? undefined : found;
    if (routerNames.has(targetName) || target?.source === 'router') {
      return fail(
        routerError(
          'INVALID_ARGUMENTS',
          `${targetName} is a router tool: call it directly, not through ${name}`,
        ),
        context,
        {},
        targetName,
      );
    }
    if (!target) {
      const held = refusal(targetName);
      if (held !== undefined) return fail(routerError('PERMISSION_DENIED', held), context, {}, targetName);
      const candidates = registry
        .list()
        .filter((entry) => entry.enabled && entry.source !== 'router' && !routerNames.has(entry.name))
        .map((entry) => entry.name)
        .filter((candidate) => {
          const tool = sees === undefined ? undefined : registry.get(candidate);
          return tool === undefined || sees!(tool, call.caller);
        });
      const suggestions = suggestToolNames(targetName, candidates);
      const hint = suggestions.length > 0 ? `; did you mean: ${suggestions.join(', ')}?` : '';
      return fail(
        routerError('TOOL_NOT_FOUND', `unknown tool "${targetName}"${hint}`),
        context,
        { suggestions },
        targetName,
      );
    }
    if (settings.planMode() && target.readOnly !== true) {
      return fail(
        routerError('PERMISSION_DENIED', `plan mode: ${targetName} is not read-only`),
        context,
        {},
        targetName,
      );
    }
    if (target.ownerOnly === true && !settings.senderIsOwner(call.caller)) {
      return fail(
        routerError(
          'PERMISSION_DENIED',
          `${targetName} is for the owner only, and the sender is not the owner`,
        ),
        context,
        {},
        targetName,
      );
    }
    // MCP tools validate against their own (normalized) schema before anything is sent;
    // checking twice would only add a second, possibly different, opinion.
    const problem = target.source === 'mcp' ? undefined : validateArguments(target.parameters, args);
    if (problem) {
      return fail(
        routerError('INVALID_ARGUMENTS', `Tool ${targetName}: ${problem.message}`),
        context,
        { field: problem.field },
        targetName,
      );
    }
    // One call of one MCP tool: a gateway's 2026-07-28 caller may relay its input_required.
    if (only && target.source === 'mcp' && target.server !== undefined)
      call.upstream?.relay?.relayFor(target.server);
    try {
      return await executeWith(target, args, call.toolCallId === toolCallId ? call : { ...call, toolCallId });
    } catch (error) {
      // Native tools may throw; the agent loop must get a result, never an exception.
      const classified = classifyRouterError(error);
      return fail(
        { ...classified, msg: `Tool ${targetName} failed: ${classified.msg}` },
        context,
        {},
        targetName,
      );
    }
  };
}

/**
 * `call_tool { name, arguments }`: calls any enabled registered tool by its exposed name,
 * so an agent holding only the router tools can still act. Arguments are validated against
 * the target's schema first; signal and `onUpdate` are forwarded; the target's result comes
 * back unchanged. Refuses router tools, in plan mode any tool that is not read-only, and
 * `ownerOnly` tools when the sender is not the owner.
 */
export function createCallToolTool(
  registry: ToolRegistry,
  settings: ResolvedRouterOptions,
  routerNames: Set<string>,
  route: RouteToolCall = createRouteToolCall(registry, settings, routerNames),
): Tool {
  return {
    name: settings.names.callTool,
    label: 'Call tool',
    description: `Call any tool by name (find names with ${settings.names.toolIndex}).`,
    parameters,
    source: 'router',
    category: 'router',
    readOnly: false,
    async execute(toolCallId, params, signal, onUpdate, callContext): Promise<ToolResult> {
      const invalid = validateArguments(parameters, params ?? {});
      if (invalid)
        return renderRouterResult(
          errorOutcome(routerError('INVALID_ARGUMENTS', invalid.message)),
          settings.format,
          performance.now(),
        );
      return route({
        toolCallId,
        name: String(params.name),
        arguments: (params.arguments ?? {}) as Record<string, unknown>,
        context: contextOf(toolCallId, signal, onUpdate, callContext),
        only: true,
      });
    },
  };
}
