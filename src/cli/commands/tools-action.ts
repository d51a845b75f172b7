import type { Command } from 'commander';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { DEFAULT_ROUTER_TOOL_NAMES } from '../../router/router-options.js';
import type { Tool } from '../../tool/tool.js';
import { formatToolTable, printJson, printLine } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';
import { requireServer } from './require-server.js';

interface ToolsOptions {
  server?: string;
  schemas?: boolean;
  search?: string;
  limit?: number;
}

/** The tools `tool_index` ranks for `search`, best first: the agent's view, so a miss can be seen. */
async function searchTools(tools: Tool[], search: string, limit: number | undefined): Promise<Tool[]> {
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

/** Runs `mcptools tools`. */
export async function toolsAction(commandOptions: ToolsOptions, command: Command): Promise<void> {
  await runSessionCommand(command, async ({ session, options }) => {
    if (commandOptions.server !== undefined) requireServer(session.hub, commandOptions.server);
    const all = await session.tools();
    const ranked =
      commandOptions.search === undefined
        ? all
        : await searchTools(all, commandOptions.search, commandOptions.limit);
    const tools =
      commandOptions.server === undefined
        ? ranked
        : ranked.filter((tool) => tool.server === commandOptions.server);
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
      return 0;
    }
    for (const line of formatToolTable(tools)) printLine(line);
    if (commandOptions.schemas) {
      for (const tool of tools) {
        printLine();
        printLine(`${tool.name}:`);
        printLine(JSON.stringify(tool.parameters, null, 2));
      }
    }
    return 0;
  });
}
