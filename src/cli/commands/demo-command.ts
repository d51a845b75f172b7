import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/**
 * `mcptools demo`: the one-shot tour of the built-in configuration — server-everything,
 * server-filesystem on a sandbox directory, server-memory, and native example tools —
 * connected in parallel, then each server's status, the unified tool list and a search.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('run the built-in configuration once: three published MCP servers and native example tools')
    .addHelpText('after', '\nExamples:\n  mcptools demo\n  mcptools demo --json')
    .action(lazyAction(async () => (await import('./demo-action.js')).demoAction));
}
