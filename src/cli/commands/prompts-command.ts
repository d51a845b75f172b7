import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `mcptools prompts [--server S]`: the prompts of every server. */
export function registerPromptsCommand(program: Command): void {
  program
    .command('prompts')
    .description('list the prompts of every server (or one), with their arguments')
    .option('--server <name>', 'only this server')
    .addHelpText('after', '\nExamples:\n  mcptools prompts\n  mcptools prompts --server everything --json')
    .action(lazyAction(async () => (await import('./prompts-action.js')).promptsAction));
}
