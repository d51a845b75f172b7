import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { durationOption } from '../parse-option-value.js';

/** `mcptools call TOOL [JSON | key=value …]`: call one tool and print its result. */
export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description('call one tool by its exposed name (server__tool or server.tool)')
    .argument('<tool>', 'exposed tool name, e.g. everything__echo')
    .argument(
      '[arguments...]',
      'one JSON object, or key=value pairs typed by the tool’s schema (key=@file reads a file)',
    )
    .option('--timeout <ms>', 'call timeout in milliseconds (e.g. 5000 or 5e3)', durationOption)
    .option('--save <dir>', 'write images, audio and blobs of the result into this directory')
    .option('--format <format>', '"text" (default) or "compact" (seed 002’s two-line format)')
    .addHelpText(
      'after',
      `
key=value: numbers, booleans, JSON objects and arrays follow the tool's schema.
Ctrl-C cancels the call upstream and exits 130.
Examples:
  mcptools call everything__echo message=hello
  mcptools call everything__add a=2 b=3
  mcptools call everything__echo '{"message":"hello"}' --json
  mcptools call files__write_file path=.sandbox/a.txt content=@notes.txt
  mcptools call everything__get-tiny-image --save ./out`,
    )
    .action(lazyAction(async () => (await import('./call-action.js')).callAction));
}
