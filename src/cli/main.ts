#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { registerAuthCommand } from './commands/auth.js';
import { registerCallCommand } from './commands/call-command.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerServersCommand } from './commands/servers-command.js';
import { registerToolsCommand } from './commands/tools-command.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';

const program = new Command('mcptools')
  .description('Every tool an agent can use behind one interface: MCP servers and native tools.')
  .option(
    '-c, --config <file>',
    'configuration file (mcptools.json, .mcp.json, Claude Desktop, VS Code, Cursor, Windsurf, Codex TOML)',
  )
  .option('--json', 'machine-readable output')
  .option('--connect-timeout <ms>', 'per-server connect timeout in milliseconds', (value) =>
    Number.parseInt(value, 10),
  )
  .showHelpAfterError()
  .exitOverride();

registerServersCommand(program);
registerToolsCommand(program);
registerCallCommand(program);
registerDemoCommand(program);
registerAuthCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; every other parse failure is a usage error.
    process.exitCode = error.exitCode === 0 ? ExitCode.success : ExitCode.usage;
  } else {
    const message = McpToolsError.isInstance(error)
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
    process.stderr.write(`mcptools: ${message}\n`);
    process.exitCode = exitCodeFor(error);
  }
}
