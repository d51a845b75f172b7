import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `mcptools config [--all]`: the configuration in use, secrets masked, each server's file named. */
export function registerConfigCommand(program: Command): void {
  program
    .command('config')
    .description('show the configuration in use: which file each server comes from, secrets masked')
    .option('--all', 'merge every config file found on this machine (the first file to name a server wins)')
    .addHelpText(
      'after',
      '\nNo server is started. Exit code 2 when a file is invalid.\nExamples:\n  mcptools config\n  mcptools config --all --json',
    )
    .action(lazyAction(async () => (await import('./config-action.js')).configAction));
}
