import type { Command } from 'commander';
import { undoHost } from '../../hosts/connect-host.js';
import { hostDefinition } from '../../hosts/host-definitions.js';
import { processHostEnvironment } from '../../hosts/host-environment.js';
import { importHost } from '../../hosts/import-host.js';
import { mcptoolsCommand } from '../../hosts/mcptools-command.js';
import { printJson, printLine } from '../print.js';
import { warnOnStderr } from '../warn-on-stderr.js';
import { printUndone, stdioTarget, targetConfigPath } from './connect-action.js';
import { globalOptions } from './global-options.js';

/** Runs `mcptools import <host> [--replace | --undo]`. */
export async function importAction(
  hostName: string,
  options: { replace?: boolean; undo?: boolean },
  command: Command,
) {
  const json = globalOptions(command).json === true;
  const host = hostDefinition(hostName);
  const hostOptions = { ...processHostEnvironment(), env: process.env };
  if (options.undo) {
    printUndone(host.name, undoHost(host, hostOptions), json);
    return;
  }
  const configPath = targetConfigPath(command);
  const result = importHost(host, {
    ...hostOptions,
    configPath,
    cliEntry: mcptoolsCommand().args[0],
    ...(options.replace ? { replace: stdioTarget(configPath) } : {}),
  });
  for (const clash of result.clashes)
    warnOnStderr(`${host.name}: "${clash.name}" not imported: ${clash.reason}`);
  for (const skipped of result.skipped)
    warnOnStderr(`${host.name}: "${skipped.name}" not imported: it ${skipped.reason}`);
  if (json) {
    printJson(result);
    return;
  }
  const names = (list: string[]) => (list.length === 0 ? 'none' : list.join(', '));
  printLine(`${host.name}: imported ${names(result.imported)} into ${configPath}`);
  if (result.alreadyThere.length > 0) printLine(`Already there, the same: ${names(result.alreadyThere)}`);
  if (result.entry !== undefined) {
    printLine(
      `${result.file}: removed ${names(result.removedFromHost)}; mcptools is its entry "${result.entry}"`,
    );
    const left = [...result.clashes, ...result.skipped].map((entry) => entry.name);
    if (left.length > 0) printLine(`Left in ${result.file}: ${names(left)} (see the warnings above)`);
  }
  printLine(`Undo: mcptools import ${host.id} --undo (the files before are kept in ${result.backup})`);
}
