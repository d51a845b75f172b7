import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { durationOption } from '../parse-option-value.js';

/**
 * `mcptools auth SERVER` (sign in: opens the browser, or prints the URL), `mcptools auth --list`
 * (who is authorized, scopes, expiry; never a token) and `mcptools auth --logout SERVER`. The
 * action is imported only when the command runs.
 */
export function registerAuthCommand(program: Command): void {
  program
    .command('auth')
    .description('authorize a remote server with OAuth (--list shows the vault, --logout forgets a server)')
    .argument('[server]', 'the configured server to authorize')
    .option('--list', 'list authorized servers: scopes and expiry, never a token')
    .option('--logout <server>', 'forget the tokens of a server (a configured name or its URL)')
    .option('--no-browser', 'print the authorization URL instead of opening a browser')
    .option('--timeout <ms>', 'how long to wait for the sign-in (default 5 minutes)', durationOption)
    .addHelpText(
      'after',
      '\nTokens live in $XDG_CONFIG_HOME/mcptools/oauth-vault.json (else ~/.config/mcptools/), mode 0600.\nExamples:\n  mcptools auth linear\n  mcptools auth --list --json\n  mcptools auth --logout linear',
    )
    .action(lazyAction(async () => (await import('./auth-action.js')).authAction));
}
