import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { positiveIntegerOption } from '../parse-option-value.js';

/** `mcptools tools`: the unified tool list, MCP and native alike, or its ranking for a request. */
export function registerToolsCommand(program: Command): void {
  program
    .command('tools')
    .description('list every tool an agent would get, MCP and native alike')
    .option('--server <name>', 'only the tools of this server')
    .option('--search <request>', 'rank the tools for a request, as tool_index does')
    .option('--limit <n>', 'most tools with --search (default 10)', positiveIntegerOption)
    .option('--schemas', 'print each tool’s input schema')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools tools --server everything\n  mcptools tools --search "read a file" --limit 3\n  mcptools tools --schemas --json',
    )
    .action(lazyAction(async () => (await import('./tools-action.js')).toolsAction));
}
