import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `mcptools prompt SERVER NAME [key=value …]`: expand one prompt into its messages. */
export function registerPromptCommand(program: Command): void {
  program
    .command('prompt')
    .description('get one prompt of one server, expanded into its messages')
    .argument('<server>', 'server name')
    .argument('<name>', 'prompt name, as in `mcptools prompts`')
    .argument('[arguments...]', 'prompt arguments as key=value (key=@file reads a file)')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools prompt everything simple-prompt\n  mcptools prompt everything args-prompt city=Paris state=Texas --json',
    )
    .action(lazyAction(async () => (await import('./prompt-action.js')).promptAction));
}
