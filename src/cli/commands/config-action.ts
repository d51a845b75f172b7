import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { configSearchPaths } from '../../config/config-search-paths.js';
import type { McpToolsConfig, ServerConfig } from '../../config/config-types.js';
import { displayConfigPath } from '../../config/display-config-path.js';
import { loadConfig } from '../../config/load-config.js';
import { redactServer } from '../../config/redact-config.js';
import { ExitCode } from '../exit-codes.js';
import { printJson, printLine, table } from '../print.js';
import { reportFailure } from '../report-failure.js';
import { resolveCliConfig } from '../resolve-cli-config.js';
import { warnOnStderr } from '../warn-on-stderr.js';
import { globalOptions } from './global-options.js';

/** One server as `config` prints it: its entry with secrets masked, and the file it came from. */
interface ServerView {
  name: string;
  from: string;
  config: ServerConfig;
}

/** A later file's server whose name an earlier file already took: kept out, and said so. */
interface Shadowed {
  name: string;
  from: string;
  keptFrom: string;
}

function serverViews(config: McpToolsConfig, from: string): ServerView[] {
  return Object.entries(config.servers).map(([name, server]) => ({
    name,
    from,
    config: redactServer(server),
  }));
}

function target(server: ServerConfig): string {
  if (server.type === 'stdio') return [server.command, ...(server.args ?? [])].join(' ');
  return server.url;
}

function printServers(servers: ServerView[]): void {
  const rows = [['SERVER', 'TYPE', 'FROM', 'COMMAND / URL']];
  for (const { name, from, config } of servers)
    rows.push([name + (config.enabled === false ? ' (disabled)' : ''), config.type, from, target(config)]);
  for (const line of table(rows)) printLine(line);
}

/** Every file discovery looks at that exists, `--config` first. */
async function existingConfigFiles(explicit: string | undefined): Promise<string[]> {
  const candidates = [...(explicit ? [resolve(explicit)] : []), ...configSearchPaths()];
  const found: string[] = [];
  for (const path of new Set(candidates)) {
    if ((await stat(path).catch(() => undefined))?.isFile()) found.push(path);
  }
  return found;
}

async function showAll(explicit: string | undefined, json: boolean): Promise<number> {
  const cwd = process.cwd();
  const files: { file: string; servers: string[]; error?: string }[] = [];
  const servers: ServerView[] = [];
  const shadowed: Shadowed[] = [];
  let failed = false;
  for (const path of await existingConfigFiles(explicit)) {
    const file = displayConfigPath(path, cwd);
    try {
      const config = await loadConfig(path, { onWarning: warnOnStderr });
      files.push({ file, servers: Object.keys(config.servers) });
      for (const view of serverViews(config, file)) {
        const kept = servers.find((server) => server.name === view.name);
        if (kept) shadowed.push({ name: view.name, from: file, keptFrom: kept.from });
        else servers.push(view);
      }
    } catch (error) {
      failed = true;
      files.push({ file, servers: [], error: error instanceof Error ? error.message : String(error) });
      if (!json) reportFailure(error);
    }
  }
  if (json) {
    printJson({ files, servers, shadowed });
  } else {
    if (files.length === 0) printLine('No configuration file found on this machine.');
    else printLine(`Files, in the order they are read (the first to name a server wins):`);
    for (const { file, servers: names, error } of files)
      printLine(`  ${file}: ${error ? 'INVALID' : `${names.length} server(s)`}`);
    printLine();
    printServers(servers);
    for (const { name, from, keptFrom } of shadowed)
      printLine(`note: "${name}" in ${from} is ignored: ${keptFrom} already defines it`);
  }
  return failed ? ExitCode.usage : ExitCode.success;
}

/** Runs `mcptools config`. */
export async function configAction(commandOptions: { all?: boolean }, command: Command): Promise<void> {
  const options = globalOptions(command);
  if (commandOptions.all) {
    process.exitCode = await showAll(options.config, options.json === true);
    return;
  }
  const { config, builtIn } = await resolveCliConfig({ ...options, createWorkspace: false });
  const from = builtIn ? 'built-in' : displayConfigPath(config.source ?? '', process.cwd());
  const servers = serverViews(config, from);
  if (options.json) {
    printJson({ source: from, builtIn, servers });
    return;
  }
  printLine(`Configuration: ${builtIn ? 'the built-in default (no file found)' : from}`);
  printLine();
  printServers(servers);
}
