import type { Command } from 'commander';
import { openSession } from '../open-session.js';
import { formatToolTable, printJson, printLine } from '../print.js';
import { type GlobalOptions, sessionOptions } from './global-options.js';

/** `mcptools tools`: the unified tool list, MCP and native alike. */
export function registerToolsCommand(program: Command): void {
  program
    .command('tools')
    .description('list every tool an agent would get, MCP and native alike')
    .option('--schemas', 'include each tool’s input schema (with --json)')
    .action(async (commandOptions: { schemas?: boolean }, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      await using session = await openSession(sessionOptions(options));
      const tools = await session.tools();
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
