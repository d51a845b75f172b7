import type { Command } from 'commander';
import { ExitCode } from '../exit-codes.js';
import { createPainter } from '../painter.js';
import { formatStatusTable, printJson, printLine } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';

/** Runs `mcptools servers`. */
export async function serversAction(_options: unknown, command: Command): Promise<void> {
  await runSessionCommand(command, async ({ session, options }) => {
    const statuses = session.hub.status();
    const plugins = session.plugins.map(({ id, spec, status, error, tools }) => ({
      id,
      spec,
      status,
      error,
      tools,
    }));
    const failed = statuses.filter(
      (status) =>
        status.state === 'error' || status.state === 'disconnected' || status.state === 'auth_required',
    );
    if (options.json) {
      printJson({
        source: session.config.source,
        servers: statuses.map((status) => ({ ...status, connectMs: session.connectMs.get(status.name) })),
        plugins,
      });
    } else {
      const paint = createPainter();
      const [header, ...rows] = formatStatusTable(statuses, session.connectMs);
      printLine(paint.bold(header ?? ''));
      for (const [index, row] of rows.entries()) {
        const state = statuses[index]?.state;
        printLine(
          state === 'connected'
            ? row
            : state === 'disabled' || state === 'skipped'
              ? paint.dim(row)
              : paint.red(row),
        );
      }
      for (const plugin of plugins) {
        printLine(
          `plugin ${plugin.id}: ${plugin.status}, ${plugin.tools.length} tool(s)${plugin.error ? ` — ${plugin.error}` : ''}`,
        );
      }
    }
    if (failed.length > 0) {
      const names = failed.map((status) => status.name);
      process.stderr.write(
        `mcptools: ${failed.length} of ${statuses.length} servers not connected: ${names.join(', ')}; \`mcptools doctor${names.length === 1 ? ` ${names[0]}` : ''}\` suggests a fix\n`,
      );
      return ExitCode.connection;
    }
    return ExitCode.success;
  });
}
