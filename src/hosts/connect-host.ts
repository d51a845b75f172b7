import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { type ConnectTarget, entryName } from './connect-target.js';
import { type HostBackup, hostBackupPath, readHostBackup, removeHostBackup } from './host-backups.js';
import type { HostDefinition } from './host-definitions.js';
import type { HostEnvironment } from './host-environment.js';
import type { ServersFile } from './open-servers-document.js';
import { changeServers, type UndoOutcome, undoServersFile } from './servers-change.js';

/** Options of {@link connectHost}, {@link undoHost} and `importHost`. */
export interface HostCommandOptions extends HostEnvironment {
  env: NodeJS.ProcessEnv;
  /** See `RewriteOptions.beforeWrite`. */
  beforeWrite?: () => void;
}

/** What {@link connectHost} did. */
export interface Connected {
  host: string;
  file: string;
  entry: string;
  /** `true` when an entry of that name was there already and was replaced. */
  replaced: boolean;
  /** The undo record (`connect <host> --undo` applies it). */
  backup: string;
}

/** The host's user-level file, as {@link changeServers} edits it. */
export function hostServersFile(host: HostDefinition, environment: HostEnvironment): ServersFile {
  return { path: host.configFile(environment), format: host.format, serversPath: host.serversPath };
}

/** The host's undo record, or a new empty one. */
export function hostRecord(host: HostDefinition, env: NodeJS.ProcessEnv): HostBackup {
  return readHostBackup(host.id, env) ?? { host: host.id, createdAt: new Date().toISOString(), files: [] };
}

/**
 * Writes mcptools into a host's own user-level file, in the host's format, keeping everything else
 * in it, and records the file as it was so {@link undoHost} can put it back byte for byte.
 */
export function connectHost(
  host: HostDefinition,
  target: ConnectTarget,
  options: HostCommandOptions,
): Connected {
  const file = hostServersFile(host, options);
  const entry = host.entry(target);
  const name = entryName(target);
  const record = hostRecord(host, options.env);
  let replaced = false;
  changeServers(
    file,
    record,
    (document) => {
      replaced = Object.hasOwn(document.servers(), name);
      document.set(name, entry);
      return { added: [name], removed: [] };
    },
    { hostName: host.name, env: options.env, beforeWrite: options.beforeWrite },
  );
  return {
    host: host.id,
    file: file.path,
    entry: name,
    replaced,
    backup: hostBackupPath(host.id, options.env),
  };
}

/** One file {@link undoHost} put back, and how. */
export interface UndoneFile {
  file: string;
  outcome: UndoOutcome;
}

/**
 * Undoes every change `connect` and `import` made for a host, newest file first: each file comes
 * back byte for byte when nothing else wrote it since (or is removed when it did not exist), and
 * otherwise has only mcptools' changes to its server map reversed. The record is then deleted.
 */
export function undoHost(host: HostDefinition, options: HostCommandOptions): UndoneFile[] {
  const record = readHostBackup(host.id, options.env);
  if (record === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `nothing to undo for ${host.name}: mcptools has not changed its file since the last undo`,
    );
  const undone: UndoneFile[] = [];
  for (const file of [...record.files].reverse())
    undone.push({
      file: file.path,
      outcome: undoServersFile(file, {
        hostName: host.name,
        env: options.env,
        beforeWrite: options.beforeWrite,
      }),
    });
  removeHostBackup(host.id, options.env);
  return undone;
}

/**
 * Creates the mcptools configuration a host is pointed at when it does not exist yet, with no
 * servers (owner-only: `import` may copy tokens into it); `true` when it did.
 */
export function ensureMcpToolsConfig(path: string): boolean {
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '{\n  "servers": {}\n}\n', { mode: 0o600, flag: 'wx' });
  return true;
}
