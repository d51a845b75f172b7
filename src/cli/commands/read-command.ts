import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { positiveIntegerOption } from '../parse-option-value.js';

/** `mcptools read SERVER URI`: read one resource. */
export function registerReadCommand(program: Command): void {
  program
    .command('read')
    .description('read one resource of one server')
    .argument('<server>', 'server name, as in `mcptools servers`')
    .argument('<uri>', 'resource URI, as in `mcptools resources`')
    .option(
      '--max-bytes <n>',
      'cut text after this many bytes (UTF-8 safe, with a notice on stderr)',
      positiveIntegerOption,
    )
    .option('--out <file>', 'write the content (text, or decoded blob bytes) to this file')
    .option('--format <format>', '"text" (default) or "compact" (seed 002’s two-line format)')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools read everything "demo://resource/static/document/architecture.md"\n  mcptools read files file:///tmp/photo.png --out photo.png\n  mcptools read everything demo://resource/static/document/architecture.md --max-bytes 200 --format compact',
    )
    .action(lazyAction(async () => (await import('./read-action.js')).readAction));
}
