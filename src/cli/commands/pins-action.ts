import type { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { cliPinsFile } from '../../pins/cli-pins.js';
import { pinDiff } from '../../pins/pin-diff.js';
import { readPinFile, splitPinKey } from '../../pins/pin-file.js';
import { approvePending } from '../../pins/pin-guard.js';
import { ExitCode } from '../exit-codes.js';
import { printJson, printLine, table } from '../print.js';
import { globalOptions, sessionOptions } from './global-options.js';

/** The pin file the command works on: `--file`, else the configuration's `pins.file`, else the default. */
async function pinsFile(command: Command, explicit: string | undefined): Promise<string> {
  // `--file` after a subcommand may be parsed as the `pins` command's own option: both count.
  const file = explicit ?? command.optsWithGlobals<{ file?: string }>().file;
  if (file !== undefined) return file;
  const options = globalOptions(command);
  const config = await loadConfig(options.config, { optional: true });
  return cliPinsFile(config, undefined);
}

/** One row of `mcptools pins`. */
interface PinRow {
  server: string;
  kind: string;
  name: string;
  state: 'pinned' | 'changed' | 'new';
  since: string;
}

/** Runs `mcptools pins`: every pinned and pending definition, by server. */
export async function pinsAction(
  commandOptions: { server?: string; file?: string },
  command: Command,
): Promise<void> {
  const file = await pinsFile(command, commandOptions.file);
  const content = readPinFile(file);
  const rows: PinRow[] = [];
  for (const [server, record] of Object.entries(content.servers)) {
    if (commandOptions.server !== undefined && server !== commandOptions.server) continue;
    for (const [key, pin] of Object.entries(record.pins)) {
      if (record.pending[key] !== undefined) continue;
      rows.push({ server, ...splitPinKey(key), state: 'pinned', since: pin.pinnedAt });
    }
    for (const [key, entry] of Object.entries(record.pending))
      rows.push({
        server,
        ...splitPinKey(key),
        state: record.pins[key] === undefined ? 'new' : 'changed',
        since: entry.seenAt,
      });
  }
  if (globalOptions(command).json) {
    printJson({ file, definitions: rows });
    return;
  }
  printLine(`Pin file: ${file}`);
  if (rows.length === 0) {
    printLine('Nothing pinned yet.');
    return;
  }
  const lines = [['SERVER', 'KIND', 'NAME', 'STATE', 'SINCE']];
  for (const row of rows)
    lines.push([
      row.server,
      row.kind,
      row.name,
      row.state === 'pinned' ? 'pinned' : `${row.state}, quarantined`,
      row.since,
    ]);
  for (const line of table(lines)) printLine(line);
  const pending = rows.filter((row) => row.state !== 'pinned');
  if (pending.length > 0)
    printLine(
      `\n${pending.length} definition(s) wait for approval: mcptools pins diff, then mcptools pins approve <server>[/<name>]`,
    );
}

/** Runs `mcptools pins diff [server]`: each pending definition against its pin. */
export async function pinsDiffAction(
  server: string | undefined,
  commandOptions: { file?: string },
  command: Command,
): Promise<void> {
  const file = await pinsFile(command, commandOptions.file);
  const content = readPinFile(file);
  const diffs: { server: string; key: string; diff: string }[] = [];
  for (const [name, record] of Object.entries(content.servers)) {
    if (server !== undefined && name !== server) continue;
    for (const [key, entry] of Object.entries(record.pending))
      diffs.push({
        server: name,
        key,
        diff: pinDiff(`${name}/${key}`, record.pins[key]?.definition, entry.definition),
      });
  }
  if (globalOptions(command).json) {
    printJson({ file, diffs });
    return;
  }
  if (diffs.length === 0) {
    printLine('No definition waits for approval.');
    return;
  }
  for (const { server: name, key, diff } of diffs) {
    printLine(diff);
    printLine(`approve with: mcptools pins approve ${name}/${splitPinKey(key).name}`);
    printLine();
  }
}

/**
 * Runs `mcptools pins save [--file F]`: connects every configured server and pins what each
 * lists now (tools, prompts, resource templates), approving every pending definition: the file
 * to review in a pull request and to serve with `"pins": { "file": F, "trustOnFirstUse": false }`.
 */
export async function pinsSaveAction(commandOptions: { file?: string }, command: Command): Promise<void> {
  const options = globalOptions(command);
  const file = await pinsFile(command, commandOptions.file);
  const { openSession } = await import('../open-session.js');
  const session = await openSession({ ...sessionOptions(options), pins: { file, mode: 'warn' } });
  try {
    const servers = session.hub.servers();
    await Promise.all([
      session.hub.prompts.listAll().catch(() => undefined),
      ...servers.map((server) => session.hub.resources.listTemplates(server).catch(() => undefined)),
    ]);
    await (session.hub as { pins?: { flush(): Promise<void> } }).pins?.flush();
    const approved: string[] = [];
    for (const server of servers)
      for (const key of await approvePending(file, server)) approved.push(`${server}/${key}`);
    const content = readPinFile(file);
    const count = servers.reduce(
      (sum, server) => sum + Object.keys(content.servers[server]?.pins ?? {}).length,
      0,
    );
    if (options.json) printJson({ file, pinned: count, approved });
    else
      printLine(
        `Pinned ${count} definition(s) of ${servers.length} server(s) in ${file}${approved.length > 0 ? ` (${approved.length} changed or new approved)` : ''}`,
      );
  } finally {
    await session.close();
  }
}

/** Runs `mcptools pins approve <server>[/<name>]`: the pending definitions become pins. */
export async function pinsApproveAction(
  target: string,
  commandOptions: { file?: string },
  command: Command,
): Promise<void> {
  const file = await pinsFile(command, commandOptions.file);
  const slash = target.indexOf('/');
  const server = slash < 0 ? target : target.slice(0, slash);
  const name = slash < 0 ? undefined : target.slice(slash + 1);
  const approved = await approvePending(file, server, name);
  if (globalOptions(command).json) printJson({ file, server, approved });
  else if (approved.length === 0) printLine(`Nothing of ${target} waits for approval.`);
  else for (const key of approved) printLine(`approved ${server}/${key}`);
  if (approved.length === 0) process.exitCode = ExitCode.usage;
}
