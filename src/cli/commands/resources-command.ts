import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `mcptools resources [--server S]`: the resources (and templates) of every server. */
export function registerResourcesCommand(program: Command): void {
  program
    .command('resources')
    .description('list the resources and resource templates of every server (or one)')
    .option('--server <name>', 'only this server')
    .option('--format <format>', '"text" (default) or "compact" (seed 002’s two-line format)')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools resources\n  mcptools resources --server everything --json\n  mcptools resources --format compact',
    )
    .action(lazyAction(async () => (await import('./resources-action.js')).resourcesAction));
}
