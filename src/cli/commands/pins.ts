import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/**
 * `mcptools pins` (every pinned and quarantined definition), `pins diff [server]` (what changed),
 * `pins approve <server>[/<name>]` (serve it) and `pins save` (pin what the servers list now).
 * The actions are imported only when a command runs.
 */
export function registerPinsCommand(program: Command): void {
  const pins = program
    .command('pins')
    .description('show pinned tool, prompt and template definitions and the changed ones held back')
    .option('--server <name>', 'only the definitions of this server')
    .option(
      '--file <path>',
      'the pin file (default: the configuration\'s "pins.file", else beside the OAuth vault)',
    )
    .addHelpText(
      'after',
      '\nPins live in $XDG_CONFIG_HOME/mcptools/pins.json (else ~/.config/mcptools/), mode 0600.\nExamples:\n  mcptools pins\n  mcptools pins diff github\n  mcptools pins approve github/create_issue',
    )
    .action(lazyAction(async () => (await import('./pins-action.js')).pinsAction));
  pins
    .command('diff')
    .description('show each quarantined definition against its pin')
    .argument('[server]', 'only this server')
    .option('--file <path>', 'the pin file')
    .action(lazyAction(async () => (await import('./pins-action.js')).pinsDiffAction));
  pins
    .command('approve')
    .description('approve quarantined definitions: all of a server, or one by name (server/name)')
    .argument('<target>', 'server, or server/name (server/prompt:name for one kind)')
    .option('--file <path>', 'the pin file')
    .addHelpText('after', '\nA running gateway serves the approved definitions within a second.')
    .action(lazyAction(async () => (await import('./pins-action.js')).pinsApproveAction));
  pins
    .command('save')
    .description('connect every server and pin what it lists now (a pin file to review and commit)')
    .option('--file <path>', 'write this pin file')
    .action(lazyAction(async () => (await import('./pins-action.js')).pinsSaveAction));
}
