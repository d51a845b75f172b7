import type { Command } from 'commander';
import type { PromptEntry, ServerError } from '../../mcp/hub-types.js';
import { ExitCode } from '../exit-codes.js';
import { firstLine, printJson, printLine, table } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';
import { requireServer } from './require-server.js';

/** Runs `mcptools prompts`. */
export async function promptsAction(commandOptions: { server?: string }, command: Command): Promise<void> {
  await runSessionCommand(command, async ({ session, options, signal }) => {
    const { server } = commandOptions;
    let prompts: PromptEntry[];
    let errors: ServerError[] = [];
    if (server === undefined) {
      ({ items: prompts, errors } = await session.hub.prompts.listAll({ signal }));
    } else {
      requireServer(session.hub, server);
      prompts = await session.hub.prompts.list(server, { signal });
    }
    if (options.json) {
      printJson({ prompts, errors });
    } else {
      const rows = [['SERVER', 'PROMPT', 'ARGUMENTS', 'DESCRIPTION']];
      for (const prompt of prompts) {
        const args = (prompt.arguments ?? [])
          .map((arg) => (arg.required ? arg.name : `[${arg.name}]`))
          .join(' ');
        rows.push([
          prompt.server,
          prompt.name,
          args || '-',
          firstLine(prompt.description ?? prompt.title ?? '', 60),
        ]);
      }
      for (const line of table(rows)) printLine(line);
      for (const { server: failed, error } of errors)
        process.stderr.write(`mcptools: ${failed}: ${error.code}: ${firstLine(error.message)}\n`);
    }
    return errors.length > 0 && prompts.length === 0 ? ExitCode.connection : ExitCode.success;
  });
}
