import type { Command } from 'commander';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { DEFAULT_ROUTER_TOOL_NAMES } from '../../router/router-options.js';
import type { Tool } from '../../tool/tool.js';
import { openSession } from '../open-session.js';
import { formatToolTable, printJson, printLine } from '../print.js';
import { type GlobalOptions, sessionOptions } from './global-options.js';

interface ToolsOptions {
  schemas?: boolean;
  search?: string;
  limit?: number;
}

/** The tools `tool_index` ranks for `search`, best first: the agent's view, so a miss can be seen. */
async function searchTools(tools: Tool[], search: string, limit: number | undefined): Promise<Tool[]> {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
    throw new McpToolsError('INVALID_ARGUMENTS', '--limit must be a positive integer');
  const toolIndex = tools.find((tool) => tool.name === DEFAULT_ROUTER_TOOL_NAMES.toolIndex);
  if (!toolIndex) throw new McpToolsError('TOOL_NOT_FOUND', 'tool_index is not in this session');
  const result = await toolIndex.execute('cli-search', { search, ...(limit === undefined ? {} : { limit }) });
  const details = result.details as
    | { tools?: { name: string }[]; error?: { msg: string }; warning?: string }
    | undefined;
  if (result.isError || !details?.tools)
    throw new McpToolsError('INVALID_ARGUMENTS', details?.error?.msg ?? 'tool_index failed');
  // A failed semantic ranking still ranks, lexically; say so where the table does not.
  if (details.warning) process.stderr.write(`mcptools: ${details.warning}\n`);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return details.tools.map((entry) => byName.get(entry.name)).filter((tool) => tool !== undefined);
}

/** `mcptools tools`: the unified tool list, MCP and native alike, or its ranking for a request. */
export function registerToolsCommand(program: Command): void {
  program
    .command('tools')
    .description('list every tool an agent would get, MCP and native alike')
    .option('--schemas', 'include each tool’s input schema (with --json)')
    .option('--search <request>', 'rank the tools for a request, as tool_index does')
    .option('--limit <n>', 'most tools with --search (default 10)', (value) => Number(value))
    .action(async (commandOptions: ToolsOptions, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      await using session = await openSession(sessionOptions(options));
      const all = await session.tools();
      const tools =
        commandOptions.search === undefined
          ? all
          : await searchTools(all, commandOptions.search, commandOptions.limit);
      if (options.json) {
        printJson(
          tools.map((tool) => ({
            name: tool.name,
            source: tool.source,
            server: tool.server,
            originalName: tool.originalName,
            description: tool.description,
            readOnly: tool.readOnly ?? false,
            ...(commandOptions.schemas ? { parameters: tool.parameters } : {}),
          })),
        );
      } else {
        for (const line of formatToolTable(tools)) printLine(line);
      }
    });
}
