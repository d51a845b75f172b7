import { resolve } from 'node:path';
import type { Command } from 'commander';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { connectHost, ensureMcpToolsConfig, type UndoneFile, undoHost } from '../../hosts/connect-host.js';
import type { ConnectTarget } from '../../hosts/connect-target.js';
import { hostDefinition } from '../../hosts/host-definitions.js';
import { processHostEnvironment } from '../../hosts/host-environment.js';
import { listHosts } from '../../hosts/list-hosts.js';
import { mcptoolsCommand } from '../../hosts/mcptools-command.js';
import { userConfigPath } from '../../hosts/user-config-path.js';
import { printJson, printLine, table } from '../print.js';
import { globalOptions } from './global-options.js';

/** Options of `mcptools connect`. */
interface ConnectOptions {
  stdio?: boolean;
  http?: string;
  tokenEnv?: string;
  undo?: boolean;
  list?: boolean;
}

/** The mcptools configuration hosts are pointed at: `--config` made absolute, else the user-level one. */
export function targetConfigPath(command: Command): string {
  const explicit = globalOptions(command).config;
  return explicit === undefined ? userConfigPath(processHostEnvironment()) : resolve(explicit);
}

/** The stdio target: this CLI by its absolute path, serving the given configuration. */
export function stdioTarget(configPath: string): Extract<ConnectTarget, { kind: 'stdio' }> {
  const cli = mcptoolsCommand();
  return {
    kind: 'stdio',
    command: cli.command,
    args: [...cli.args, 'serve', '--stdio', '--config', configPath],
  };
}

/** Runs `mcptools connect`: `--list`, `<host> --undo`, or `<host> [--stdio | --http URL]`. */
export async function connectAction(hostName: string | undefined, options: ConnectOptions, command: Command) {
  const json = globalOptions(command).json === true;
  const environment = processHostEnvironment();
  if (options.list) {
    const hosts = listHosts(environment, mcptoolsCommand().args[0]);
    if (json) {
      printJson({ hosts });
      return;
    }
    const rows = [['HOST', 'INSTALLED', 'MCPTOOLS', 'FILE']];
    for (const host of hosts)
      rows.push([
        host.host,
        host.installed ? (host.binary ? `yes (${host.binary})` : 'yes') : 'no',
        host.error !== undefined
          ? 'unreadable file'
          : host.mcptools?.length
            ? host.mcptools.join(', ')
            : 'no',
        host.file,
      ]);
    for (const line of table(rows)) printLine(line);
    return;
  }
  if (hostName === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      'name a host (mcptools connect claude-code), or --list to see them',
    );
  const host = hostDefinition(hostName);
  const hostOptions = { ...environment, env: process.env };
  if (options.undo) {
    printUndone(host.name, undoHost(host, hostOptions), json);
    return;
  }
  if (options.stdio && options.http !== undefined)
    throw new McpToolsError('INVALID_ARGUMENTS', '--stdio and --http are exclusive: choose one');
  if (options.tokenEnv !== undefined && options.http === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      '--token-env goes with --http (over stdio no token is needed)',
    );
  let target: ConnectTarget;
  let created = false;
  const configPath = targetConfigPath(command);
  if (options.http !== undefined) {
    if (!/^https?:\/\/[^\s]+$/.test(options.http))
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        '--http wants the URL `serve --http` prints, such as http://127.0.0.1:8808/mcp',
      );
    const tokenEnv = options.tokenEnv ?? (process.env.MCPTOOLS_TOKEN ? 'MCPTOOLS_TOKEN' : undefined);
    if (tokenEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv))
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        '--token-env wants an environment variable name, such as MCPTOOLS_TOKEN',
      );
    // Each host's entry decides how it refers to the variable, or refuses (Claude Desktop).
    target = { kind: 'http', url: options.http, ...(tokenEnv === undefined ? {} : { tokenEnv }) };
  } else {
    target = stdioTarget(configPath);
    created = ensureMcpToolsConfig(configPath);
  }
  const connected = connectHost(host, target, hostOptions);
  if (json) {
    printJson({
      ...connected,
      config: target.kind === 'stdio' ? configPath : undefined,
      createdConfig: created,
    });
    return;
  }
  printLine(
    `${host.name}: ${connected.replaced ? 'replaced' : 'added'} the entry "${connected.entry}" in ${connected.file}`,
  );
  if (target.kind === 'stdio') {
    printLine(`It runs: ${[target.command, ...target.args].join(' ')}`);
    if (created)
      printLine(`Created ${configPath} with no servers: add yours there, or run mcptools import ${host.id}`);
  } else {
    printLine(
      `It connects to ${target.url}${target.tokenEnv ? ` with the token from $${target.tokenEnv}` : ''}`,
    );
  }
  printLine(`Undo: mcptools connect ${host.id} --undo (the file before is kept in ${connected.backup})`);
}

/** Prints what `--undo` put back. */
export function printUndone(hostName: string, undone: UndoneFile[], json: boolean): void {
  if (json) {
    printJson({ host: hostName, undone });
    return;
  }
  for (const file of undone)
    printLine(
      file.outcome === 'exact'
        ? `${hostName}: ${file.file} is back as it was`
        : `${hostName}: ${file.file} changed since mcptools wrote it: only mcptools' entries were put back, the rest is kept as it is now`,
    );
}
