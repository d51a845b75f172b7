import type { McpToolHub, PromptEntry } from '../mcp/hub-types.js';
import type { CallContext } from '../tool/call-context.js';
import type { JsonSchemaObject, Tool } from '../tool/tool.js';
import { defineRouterTool } from './define-router-tool.js';
import { classifyRouterError, type RouterError } from './error-taxonomy.js';
import type { ListError } from './gather-resources.js';
import type { ResolvedRouterOptions } from './router-options.js';
import { errorOutcome, type RouterOutcome } from './router-result.js';
import { activeServers, serverProblem } from './server-availability.js';

/** A prompt as `list_mcp_prompts` shows it. */
export interface ListedPrompt {
  server: string;
  name: string;
  description: string | null;
  arguments: { name: string; description: string | null; required: boolean }[];
}

const parameters: JsonSchemaObject = {
  type: 'object',
  properties: { server: { type: 'string', description: 'Omit for all servers' } },
};

function toListError(server: string, error: RouterError): ListError {
  return { server, error: error.msg, type: error.type, recoverable: error.recoverable };
}

function toListed(entry: PromptEntry): ListedPrompt {
  return {
    server: entry.server,
    name: entry.name,
    description: entry.description ?? null,
    arguments: (entry.arguments ?? []).map((argument) => ({
      name: argument.name,
      description: argument.description ?? null,
      required: argument.required ?? false,
    })),
  };
}

/**
 * `list_mcp_prompts { server? }`: prompts of one server or every enabled one, in parallel,
 * on the pattern of `list_mcp_resources` (cap, per-server `errors`). Read-only.
 */
export function createListPromptsTool(base: McpToolHub, settings: ResolvedRouterOptions, name: string): Tool {
  const run = async (params: Record<string, unknown>, call: CallContext): Promise<RouterOutcome> => {
    const { signal } = call;
    // What this caller may reach: the view of the hub for them (a gateway profile's).
    const hub = settings.view(base, call.caller);
    const server = params.server as string | undefined;
    if (server !== undefined && !hub.status(server))
      return errorOutcome(serverProblem(hub, server)!, { server });
    const options = {
      ...(signal ? { signal } : {}),
      context: call,
      ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    };
    const parts = await Promise.all(
      (server === undefined ? activeServers(hub) : [server]).map(async (each) => {
        const problem = serverProblem(hub, each);
        if (problem) return { prompts: [], errors: [toListError(each, problem)] };
        try {
          const prompts = (await hub.prompts.list(each, options)).map(toListed);
          const after = serverProblem(hub, each);
          return after && prompts.length === 0
            ? { prompts, errors: [toListError(each, after)] }
            : { prompts, errors: [] };
        } catch (error) {
          return { prompts: [], errors: [toListError(each, classifyRouterError(error))] };
        }
      }),
    );
    const all = parts.flatMap((part) => part.prompts);
    const errors = parts.flatMap((part) => part.errors);
    const prompts = all.slice(0, settings.listMaxResources);
    const truncated = prompts.length < all.length;
    const payload = { prompts, truncated, errors, count: prompts.length };
    return {
      state: truncated || errors.length > 0 ? 'partial' : 'success',
      summary: `prompt list: ${prompts.length} prompt(s)${errors.length > 0 ? `, ${errors.length} server(s) failed` : ''}`,
      payload,
      compactData: {
        prompts: prompts.map((prompt) => ({ server: prompt.server, name: prompt.name })),
        total_prompts: prompts.length,
        truncated,
        ...(errors.length > 0 ? { errors } : {}),
      },
    };
  };
  return defineRouterTool(
    {
      name,
      label: 'List MCP prompts',
      description: 'List prompts of connected MCP servers.',
      parameters,
      run,
    },
    settings.format,
  );
}
