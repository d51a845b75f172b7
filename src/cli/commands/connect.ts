import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/**
 * `mcptools connect <host>` (write mcptools into a host's own configuration file, `--undo` to put
 * it back, `--list` for every host) and `mcptools import <host>` (move a host's servers into the
 * user-level mcptools configuration). The actions are imported only when a command runs.
 */
export function registerConnectCommands(program: Command): void {
  program
    .command('connect')
    .description("write mcptools into a host's own configuration file (backed up; --undo puts it back)")
    .argument(
      '[host]',
      'claude-code, claude-desktop, cursor, vscode, windsurf, gemini-cli, codex or openclaw',
    )
    .option('--stdio', 'the host starts `mcptools serve --stdio` itself (the default)')
    .option('--http <url>', 'the host connects to a running `mcptools serve --http` at this URL')
    .option(
      '--token-env <name>',
      'with --http: the environment variable holding the bearer token, written as a reference (default MCPTOOLS_TOKEN when it is set)',
    )
    .option('--undo', 'put the host’s file back as it was before connect or import')
    .option('--list', 'show which hosts are installed here and which already have mcptools')
    .addHelpText(
      'after',
      `
The entry runs this mcptools by its absolute path with --config <the user-level
configuration> ($XDG_CONFIG_HOME/mcptools/mcptools.json unless --config names one).
The file before the first change is kept in the state folder (owner-only) for --undo.
Examples:
  mcptools connect --list
  mcptools connect claude-code
  mcptools connect cursor --http http://127.0.0.1:8808/mcp --token-env MCPTOOLS_TOKEN
  mcptools connect claude-code --undo`,
    )
    .action(lazyAction(async () => (await import('./connect-action.js')).connectAction));

  program
    .command('import')
    .description("move a host's MCP servers into the user-level mcptools configuration")
    .argument(
      '<host>',
      'claude-code, claude-desktop, cursor, vscode, windsurf, gemini-cli, codex or openclaw',
    )
    .option('--replace', 'leave mcptools (over stdio) as the host’s only entry')
    .option('--undo', 'put both files back as they were (same as connect <host> --undo)')
    .addHelpText(
      'after',
      `
A name the mcptools configuration already uses for another server is reported and left
in the host's file. Values are copied as written: environment references stay references.
Examples:
  mcptools import cursor
  mcptools import claude-desktop --replace
  mcptools import claude-desktop --undo`,
    )
    .action(lazyAction(async () => (await import('./import-action.js')).importAction));
}
