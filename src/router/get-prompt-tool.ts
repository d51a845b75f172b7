import type { CallOptions, McpToolHub } from '../mcp/hub-types.js';
import type { CallContext } from '../tool/call-context.js';
import type { JsonSchemaObject, Tool } from '../tool/tool.js';
import { defineRouterTool } from './define-router-tool.js';
import { classifyRouterError } from './error-taxonomy.js';
import type { ResolvedRouterOptions } from './router-options.js';
import { errorOutcome, type RouterOutcome } from './router-result.js';
import { serverProblem } from './server-availability.js';

const parameters: JsonSchemaObject = {
  type: 'object',
  properties: {
    server: { type: 'string' },
    name: { type: 'string' },
    arguments: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['server', 'name'],
};

async function availablePrompts(hub: McpToolHub, server: string, options: CallOptions) {
  try {
    const prompts = await hub.prompts.list(server, options);
    return { available: prompts.map((prompt) => prompt.name) };
  } catch {
    return {};
  }
}

/**
 * `get_mcp_prompt { server, name, arguments? }`: expands one prompt into its messages.
 * An unknown prompt is a `ResourceNotFound` error listing the server's prompts. Read-only.
 */
export function createGetPromptTool(base: McpToolHub, settings: ResolvedRouterOptions, name: string): Tool {
  const run = async (params: Record<string, unknown>, call: CallContext): Promise<RouterOutcome> => {
    const { signal } = call;
    // What this caller may reach: the view of the hub for them (a gateway profile's).
    const hub = settings.view(base, call.caller);
    const server = String(params.server);
    const prompt = String(params.name);
    const context = { server, name: prompt };
    const problem = serverProblem(hub, server);
    if (problem) return errorOutcome(problem, context, {}, prompt);
    try {
      const result = await hub.prompts.get(
        server,
        prompt,
        params.arguments as Record<string, string> | undefined,
        {
          ...(signal ? { signal } : {}),
          context: call,
          ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
        },
      );
      const payload = {
        server,
        name: prompt,
        description: result.description ?? null,
        messages: result.messages,
      };
      return {
        state: 'success',
        summary: `prompt: ${server}/${prompt} (${result.messages.length} message(s))`,
        payload,
      };
    } catch (error) {
      const classified = classifyRouterError(error);
      if (classified.type !== 'ResourceNotFound') return errorOutcome(classified, context, {}, prompt);
      const notFound = { ...classified, msg: `prompt '${prompt}' not found on server '${server}'` };
      return errorOutcome(
        notFound,
        context,
        await availablePrompts(hub, server, { ...(signal ? { signal } : {}), context: call }),
        prompt,
      );
    }
  };
  return defineRouterTool(
    {
      name,
      label: 'Get MCP prompt',
      description: 'Get an MCP prompt expanded with string arguments.',
      parameters,
      run,
    },
    settings.format,
  );
}
