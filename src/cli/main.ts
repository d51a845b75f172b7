#!/usr/bin/env node
// Kept tiny on purpose: `--help` loads only commander and the command definitions; each
// command's dependencies are imported when it runs (CLI start ≤ 150 ms). The package's
// `bin` is this module bundled as CommonJS, dist/cli/main.cjs (scripts/bundle-cli.mjs).
import { Command, CommanderError } from 'commander';
import { registerCommands } from './command-table.js';
import { registerAuthCommand } from './commands/auth.js';
import { registerCatalogCommands } from './commands/catalog.js';
import { registerConnectCommands } from './commands/connect.js';
import { registerPinsCommand } from './commands/pins.js';
import { packageVersion } from './package-version.js';
import { durationOption } from './parse-option-value.js';

const program = new Command('mcptools')
  .description('Every tool an agent can use behind one interface: MCP servers and native tools.')
  .option(
    '-c, --config <file>',
    'configuration file (mcptools.json, .mcp.json, Claude Desktop, VS Code, Cursor, Windsurf, Codex TOML)',
  )
  .version(packageVersion(), '-V, --version', 'print the version of mcptools')
  .option('--json', 'one JSON document on stdout, nothing else there')
  .option('--connect-timeout <ms>', 'per-server connect timeout in milliseconds', durationOption)
  .showHelpAfterError()
  // `<command> --help` lists --config, --json and --connect-timeout too (as "Global Options"):
  // they apply to every command, and the README names them beside each.
  .configureHelp({ showGlobalOptions: true })
  .exitOverride()
  .addHelpText(
    'after',
    '\nExit codes: 0 success, 1 tool error, 2 usage/config error, 3 connection failure, 4 timeout, 130 cancelled.\nExample:\n  mcptools call everything__echo message=hello',
  );

registerCommands(program);
registerAuthCommand(program);
registerPinsCommand(program);
registerConnectCommands(program);
registerCatalogCommands(program);

// No top-level await: CommonJS (the bundle) cannot have one.
program.parseAsync(process.argv).catch(async (error: unknown) => {
  const json = process.argv.includes('--json');
  if (error instanceof CommanderError) {
    // Help and version exit 0; every other parse failure is a usage error (commander has
    // written its message to stderr; --json adds the document on stdout).
    process.exitCode = error.exitCode === 0 ? 0 : 2; // ExitCode.success, ExitCode.usage
    if (json && error.exitCode !== 0)
      (await import('./report-failure.js')).writeFailureJson('INVALID_ARGUMENTS', error.message, 2);
  } else {
    const { reportFailure } = await import('./report-failure.js');
    process.exitCode = reportFailure(error, json);
  }
});
