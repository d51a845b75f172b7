#!/usr/bin/env node
// Kept tiny on purpose: `--help` loads only commander and the command definitions; each
// command's dependencies are imported when it runs (issue 9: CLI start ≤ 150 ms).
import { Command, CommanderError } from 'commander';
import { registerCallCommand } from './commands/call-command.js';
import { registerConfigCommand } from './commands/config-command.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerDoctorCommand } from './commands/doctor-command.js';
import { registerPromptCommand } from './commands/prompt-command.js';
import { registerPromptsCommand } from './commands/prompts-command.js';
import { registerReadCommand } from './commands/read-command.js';
import { registerResourcesCommand } from './commands/resources-command.js';
import { registerServersCommand } from './commands/servers-command.js';
import { registerToolsCommand } from './commands/tools-command.js';
import { ExitCode } from './exit-codes.js';
import { durationOption } from './parse-option-value.js';
import { reportFailure } from './report-failure.js';

const program = new Command('mcptools')
  .description('Every tool an agent can use behind one interface: MCP servers and native tools.')
  .option(
    '-c, --config <file>',
    'configuration file (mcptools.json, .mcp.json, Claude Desktop, VS Code, Cursor, Windsurf, Codex TOML)',
  )
  .option('--json', 'one JSON document on stdout, nothing else there')
  .option('--connect-timeout <ms>', 'per-server connect timeout in milliseconds', durationOption)
  .showHelpAfterError()
  .exitOverride()
  .addHelpText(
    'after',
    '\nExit codes: 0 success, 1 tool error, 2 usage/config error, 3 connection failure, 4 timeout, 130 cancelled.\nExample:\n  mcptools call everything__echo message=hello',
  );

registerServersCommand(program);
registerToolsCommand(program);
registerCallCommand(program);
registerResourcesCommand(program);
registerReadCommand(program);
registerPromptsCommand(program);
registerPromptCommand(program);
registerConfigCommand(program);
registerDoctorCommand(program);
registerDemoCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; every other parse failure is a usage error.
    process.exitCode = error.exitCode === 0 ? ExitCode.success : ExitCode.usage;
  } else {
    process.exitCode = reportFailure(error);
  }
}
