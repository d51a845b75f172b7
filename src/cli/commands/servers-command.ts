import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `mcptools servers`: connect every configured server and show its status; exit 3 if one failed. */
export function registerServersCommand(program: Command): void {
  program
    .command('servers')
    .description(
      'connect every configured server and show its state, protocol, counts, connect time and last error',
    )
    .addHelpText(
      'after',
      '\nExit code 3 when a server is in error.\nExamples:\n  mcptools servers\n  mcptools servers --config .mcp.json --json',
    )
    .action(lazyAction(async () => (await import('./servers-action.js')).serversAction));
}
