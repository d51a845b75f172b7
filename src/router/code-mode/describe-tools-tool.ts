import type { ToolRegistry } from '../../pipeline/tool-registry.js';
import { validateArguments } from '../../tool/argument-validator.js';
import type { JsonSchemaObject, Tool, ToolResult } from '../../tool/tool.js';
import { truncateUtf8 } from '../../tool/truncate.js';
import { routerError } from '../error-taxonomy.js';
import type { ResolvedRouterOptions } from '../router-options.js';
import { errorOutcome, renderRouterResult } from '../router-result.js';
import { scriptToolView } from './script-tool-view.js';
import { toolDeclarations } from './tool-declarations.js';
import { prepareSandboxAhead } from './warm-sandbox.js';

/** Most bytes of declarations one answer holds. */
const MAX_DECLARATION_BYTES = 32 * 1024;

const parameters: JsonSchemaObject = {
  type: 'object',
  properties: {
    names: { type: 'array', items: { type: 'string' }, description: 'Tool names, as tool_index gives them.' },
    server: { type: 'string', description: 'Every tool of this server.' },
  },
};

/**
 * `describe_tools { names?, server? }`: TypeScript declarations of the named tools (or of a
 * server's), as a script calls them, so a model writes correct calls without the JSON
 * schemas in its prompt. Names the caller may not see answer as unknown ones.
 */
export function createDescribeToolsTool(
  registry: ToolRegistry,
  settings: ResolvedRouterOptions,
  routerNames: ReadonlySet<string>,
  name: string,
): Tool {
  return {
    name,
    label: 'Describe tools',
    description: `TypeScript declarations of tools for ${settings.names.runScript} (names from ${settings.names.toolIndex}, or a server's tools).`,
    parameters,
    source: 'router',
    category: 'router',
    readOnly: true,
    async execute(_toolCallId, params, _signal, _onUpdate, callContext): Promise<ToolResult> {
      const startedAt = performance.now();
      // A model describes tools to write a script next: its sandbox is made while it writes.
      prepareSandboxAhead();
      const invalid = validateArguments(parameters, params ?? {});
      const names = Array.isArray(params?.names) ? (params.names as string[]) : [];
      const server = typeof params?.server === 'string' ? params.server : undefined;
      const problem =
        invalid?.message ??
        (names.length === 0 && server === undefined ? 'give "names" or "server"' : undefined);
      if (problem !== undefined)
        return renderRouterResult(
          errorOutcome(routerError('INVALID_ARGUMENTS', problem)),
          settings.format,
          startedAt,
        );
      // The caller's own view: a tool it may not see is described as unknown.
      const visible = await scriptToolView(registry, settings, routerNames, callContext?.caller);
      const byName = new Map(visible.map((tool) => [tool.name, tool]));
      const chosen = visible.filter((tool) => server !== undefined && tool.server === server);
      const unknown: string[] = [];
      for (const wanted of names) {
        const tool = byName.get(wanted);
        if (tool === undefined) unknown.push(wanted);
        else if (!chosen.includes(tool)) chosen.push(tool);
      }
      // Plain text, not JSON: declarations in a JSON string would cost an escape per quote and line.
      const declarations = truncateUtf8(toolDeclarations(chosen), MAX_DECLARATION_BYTES);
      const notes = [
        ...(declarations.truncated ? ['// cut here: ask for fewer tools'] : []),
        ...(unknown.length > 0 ? [`// unknown tools: ${unknown.join(', ')}`] : []),
      ];
      return {
        content: [{ type: 'text', text: [declarations.text, ...notes].join('\n') }],
        details: { tools: chosen.map((tool) => tool.name), unknown, truncated: declarations.truncated },
      };
    },
  };
}
