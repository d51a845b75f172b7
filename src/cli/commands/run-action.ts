import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { DEFAULT_ROUTER_TOOL_NAMES } from '../../router/router-options.js';
import { exitCodeForResult } from '../exit-codes.js';
import { formatResult, printJson, printLine } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';
import { terminalApproval } from '../terminal-approval.js';

/** The script's text: the file, or standard input for `-`. */
async function readScript(file: string): Promise<string> {
  if (file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      throw new McpToolsError('CONFIG_INVALID', `cannot read script ${file}: ${(error as Error).message}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs `mcptools run FILE`: the script through `run_script`, as an agent's would run. */
export async function runAction(file: string, _options: object, command: Command): Promise<void> {
  const script = await readScript(file);
  await runSessionCommand(command, async ({ session, options, signal }) => {
    // Approvals asked by policies and hooks go to the person at the terminal, once per tool.
    session.registry.onApproval(terminalApproval());
    const tool = (await session.tools()).find(
      (candidate) => candidate.name === DEFAULT_ROUTER_TOOL_NAMES.runScript,
    );
    if (tool === undefined)
      throw new McpToolsError(
        'CONFIG_INVALID',
        'code mode is off (router.codeMode is false in the configuration)',
      );
    const result = await tool.execute(randomUUID(), { script }, signal);
    if (signal.aborted) throw signal.reason;
    if (options.json) printJson(result);
    else printLine(formatResult(result));
    return exitCodeForResult(result);
  });
}
