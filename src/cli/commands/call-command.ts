import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { suggestToolNames } from '../../registry/suggest-tool-names.js';
import { ExitCode } from '../exit-codes.js';
import { openSession } from '../open-session.js';
import { formatResult, printJson, printLine } from '../print.js';
import { type GlobalOptions, sessionOptions } from './global-options.js';

function parseArguments(json: string | undefined): Record<string, unknown> {
  if (json === undefined || json.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new McpToolsError('INVALID_ARGUMENTS', `Arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new McpToolsError('INVALID_ARGUMENTS', 'Arguments must be a JSON object, e.g. {"text":"hi"}');
  }
  return value as Record<string, unknown>;
}

/** `mcptools call TOOL [JSON]`: call one tool and print its result; exit 1 when it returns an error. */
export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description('call one tool by its exposed name with JSON arguments')
    .argument('<tool>', 'exposed tool name, e.g. everything__echo')
    .argument('[json]', 'arguments as a JSON object', '{}')
    .option('--timeout <ms>', 'call timeout in milliseconds', (value) => Number.parseInt(value, 10))
    .action(async (name: string, json: string, commandOptions: { timeout?: number }, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const params = parseArguments(json);
      await using session = await openSession(sessionOptions(options));
      const tools = await session.tools();
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool) {
        const suggestions = suggestToolNames(
          name,
          tools.map((candidate) => candidate.name),
        );
        throw new McpToolsError(
          'TOOL_NOT_FOUND',
          `No tool named "${name}".${suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`,
        );
      }
      const controller = new AbortController();
      const onSigint = () => controller.abort(new McpToolsError('ABORTED', 'Interrupted'));
      process.once('SIGINT', onSigint);
      const signal = commandOptions.timeout
        ? AbortSignal.any([controller.signal, AbortSignal.timeout(commandOptions.timeout)])
        : controller.signal;
      try {
        const result = await tool.execute(randomUUID(), params, signal, (update) => {
          if (!options.json && update.progress) {
            const { progress, total, message } = update.progress;
            process.stderr.write(
              `progress ${progress}${total ? `/${total}` : ''}${message ? ` ${message}` : ''}\n`,
            );
          }
        });
        if (options.json) printJson(result);
        else printLine(formatResult(result));
        process.exitCode = result.isError ? ExitCode.toolError : ExitCode.success;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
}
