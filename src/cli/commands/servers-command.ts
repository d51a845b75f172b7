import type { Command } from 'commander';
import { openSession } from '../open-session.js';
import { formatStatusTable, printJson, printLine } from '../print.js';
import { type GlobalOptions, sessionOptions } from './global-options.js';

/** `mcptools servers`: connect every configured server and show its status. */
export function registerServersCommand(program: Command): void {
  program
    .command('servers')
    .description('connect every configured server and show its state, protocol and counts')
    .action(async (_options, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      await using session = await openSession(sessionOptions(options));
      const statuses = session.provider.status();
      const plugins = session.plugins.map(({ id, spec, status, error, tools }) => ({
        id,
        spec,
        status,
        error,
        tools,
      }));
      if (options.json) {
        printJson({ source: session.config.source, servers: statuses, plugins });
        return;
      }
      for (const line of formatStatusTable(statuses)) printLine(line);
      for (const plugin of plugins) {
        printLine(
          `plugin ${plugin.id}: ${plugin.status}, ${plugin.tools.length} tool(s)${plugin.error ? ` — ${plugin.error}` : ''}`,
        );
      }
    });
}
