import type { Command } from 'commander';
import { ExitCode } from '../exit-codes.js';
import { onlyServer } from '../only-server.js';
import { parseCallArguments } from '../parse-call-arguments.js';
import { printJson, printLine } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';
import { requireServer } from './require-server.js';

/** Prompt arguments are strings by the spec: `key=value` pairs, every value kept as text. */
const stringArguments = { type: 'object' as const, additionalProperties: { type: 'string' } };

function messageText(content: unknown): string {
  const block = content as { type?: string; text?: string; resource?: { uri?: string; text?: string } };
  if (block?.type === 'text' && typeof block.text === 'string') return block.text;
  if (block?.type === 'resource') return block.resource?.text ?? `[resource: ${block.resource?.uri}]`;
  return `[${block?.type ?? 'content'}]`;
}

/** Runs `mcptools prompt SERVER NAME [key=value …]`. */
export async function promptAction(
  server: string,
  name: string,
  inputs: string[],
  _commandOptions: unknown,
  command: Command,
): Promise<void> {
  await runSessionCommand(
    command,
    async ({ session, options, signal }) => {
      requireServer(session.hub, server);
      const parsed = parseCallArguments(inputs, stringArguments);
      const args = Object.fromEntries(
        Object.entries(parsed).map(([key, value]) => [
          key,
          typeof value === 'string' ? value : JSON.stringify(value),
        ]),
      );
      const prompt = await session.hub.prompts.get(server, name, args, { signal });
      if (options.json) {
        printJson(prompt);
        return ExitCode.success;
      }
      if (prompt.description) printLine(`# ${prompt.description}`);
      for (const message of prompt.messages) printLine(`${message.role}: ${messageText(message.content)}`);
      return ExitCode.success;
    },
    { only: onlyServer(server) },
  );
}
