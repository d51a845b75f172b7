import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `mcptools doctor`: check every server and suggest a fix for each failure. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'check every server: command on PATH, starts, era and protocol, time to first tools/list, a fix for each failure',
    )
    .addHelpText(
      'after',
      '\nExit code 3 when a server fails.\nExamples:\n  mcptools doctor\n  mcptools doctor --config ~/.cursor/mcp.json --json',
    )
    .action(lazyAction(async () => (await import('./doctor-action.js')).doctorAction));
}
