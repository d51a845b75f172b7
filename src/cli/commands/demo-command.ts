import type { Command } from 'commander';
import { openSession } from '../open-session.js';
import { formatStatusTable, formatToolTable, printJson, printLine } from '../print.js';
import type { GlobalOptions } from './global-options.js';

/**
 * `mcptools demo` (what `npm start` runs): the built-in configuration — server-everything,
 * server-filesystem on a sandbox directory, server-memory, and native example tools —
 * connected in parallel, then each server's status and the unified tool list.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('run the built-in configuration: three published MCP servers and native example tools')
    .action(async (_options, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const started = performance.now();
      await using session = await openSession({ demo: true });
      const statuses = session.provider.status();
      const tools = await session.tools();
      const elapsed = Math.round(performance.now() - started);
      if (options.json) {
        printJson({
          servers: statuses,
          tools: tools.map(({ name, source, server, description }) => ({
            name,
            source,
            server,
            description,
          })),
        });
        return;
      }
      printLine(`mcptools demo — ${session.config.source}, connected in ${elapsed} ms`);
      printLine();
      for (const line of formatStatusTable(statuses)) printLine(line);
      printLine();
      printLine(`${tools.length} tools in one Tool[]:`);
      for (const line of formatToolTable(tools)) printLine(line);
      const toolIndex = tools.find((tool) => tool.name === 'tool_index');
      if (toolIndex) {
        const query = 'save a note about a person';
        const result = await toolIndex.execute('demo', { search: query, limit: 3 });
        const found = (result.details as { tools?: { name: string }[] } | undefined)?.tools ?? [];
        printLine();
        printLine(`tool_index search "${query}" → ${found.map((entry) => entry.name).join(', ')}`);
      }
    });
}
