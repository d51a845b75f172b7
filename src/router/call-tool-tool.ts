import { suggestToolNames } from '../registry/suggest-tool-names.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { validateArguments } from '../tool/argument-validator.js';
import { contextOf, executeWith } from '../tool/call-context.js';
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
  /** Why a name that is not served is held back (pins), for the error the model reads. */
  refusal: (name: string) => string | undefined = () => undefined,
): Tool {
  const name = settings.names.callTool;
  return {
    name,
    label: 'Call tool',
    description: `Call any tool by name (find names with ${settings.names.toolIndex}).`,
    parameters,
    source: 'router',
    category: 'router',
    readOnly: false,
    async execute(toolCallId, params, signal, onUpdate, callContext): Promise<ToolResult> {
      const call = contextOf(toolCallId, signal, onUpdate, callContext);
      const startedAt = performance.now();
      const fail = (...args: Parameters<typeof errorOutcome>) =>
        renderRouterResult(errorOutcome(...args), settings.format, startedAt);
      const invalid = validateArguments(parameters, params ?? {});
      if (invalid) return fail(routerError('INVALID_ARGUMENTS', invalid.message));
      const targetName = String(params.name);
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      const context = { name: targetName };
      const found = routerNames.has(targetName) ? undefined : await findTool(registry, targetName, settings);
      // A tool the sender may not see is unknown to it: same answer, no hint that it exists.
      const sees = settings.toolVisible;
      const target =
        found !== undefined && sees !== undefined && !sees(found, call.caller) ? undefined : found;
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
      if (target.source === 'mcp' && target.server !== undefined)
        call.upstream?.relay?.relayFor(target.server);
      try {
        return await executeWith(target, args, call);
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
    },
  };
}
