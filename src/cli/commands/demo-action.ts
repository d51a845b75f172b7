import type { Command } from 'commander';
import { formatStatusTable, formatToolTable, printJson, printLine } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';

/** Runs `mcptools demo`. */
export async function demoAction(_options: unknown, command: Command): Promise<void> {
  const started = performance.now();
  await runSessionCommand(
    command,
    async ({ session, options }) => {
      const statuses = session.hub.status();
      const tools = await session.tools();
      const elapsed = Math.round(performance.now() - started);
      if (options.json) {
        printJson({
          servers: statuses.map((status) => ({ ...status, connectMs: session.connectMs.get(status.name) })),
          tools: tools.map(({ name, source, server, description }) => ({
            name,
            source,
            server,
            description,
          })),
        });
        return 0;
      }
      printLine(`mcptools demo — ${session.config.source}, connected in ${elapsed} ms`);
      printLine();
      for (const line of formatStatusTable(statuses, session.connectMs)) printLine(line);
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
      return 0;
    },
    { demo: true },
  );
}
