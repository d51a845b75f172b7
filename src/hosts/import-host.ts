import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import {
  ensureMcpToolsConfig,
  type HostCommandOptions,
  hostRecord,
  hostServersFile,
} from './connect-host.js';
import { type ConnectTarget, entryName } from './connect-target.js';
import { hostBackupPath } from './host-backups.js';
import type { HostDefinition } from './host-definitions.js';
import { UnimportableEntry } from './import-entry.js';
import { isMcpToolsEntry } from './is-mcptools-entry.js';
import { openServersDocument } from './open-servers-document.js';
import { changeServers } from './servers-change.js';

/** Options of {@link importHost}. */
export interface ImportOptions extends HostCommandOptions {
  /** The user-level mcptools configuration the servers move into. */
  configPath: string;
  /** The running CLI's entry file: a host entry that starts it is mcptools, never imported. */
  cliEntry?: string;
  /** Leave mcptools (this stdio target) as the host's only entry. */
  replace?: Extract<ConnectTarget, { kind: 'stdio' }>;
}

/** A host entry `import` left where it was, and why. */
export interface LeftEntry {
  name: string;
  reason: string;
}

/** What {@link importHost} did. */
export interface Imported {
  host: string;
  file: string;
  configPath: string;
  /** Entries copied into the mcptools configuration. */
  imported: string[];
  /** Entries the mcptools configuration already had, the same. */
  alreadyThere: string[];
  /** Entries whose name the mcptools configuration uses for another server: not copied. */
  clashes: LeftEntry[];
  /** Entries that could not be read as an mcptools server. */
  skipped: LeftEntry[];
  /** With `replace`: the entries removed from the host's file, and mcptools' entry written. */
  removedFromHost: string[];
  entry?: string;
  backup: string;
}

/**
 * Moves a host's servers into the user-level mcptools configuration: each entry of the host's
 * user-level file, converted to an `mcptools.json` entry with its values as written (environment
 * references kept as references), merged beside the entries already there; a name already used
 * for a different server is reported, never overwritten. With `replace`, the imported entries
 * leave the host's file and mcptools' stdio entry takes their place. Both files are recorded
 * for `connect <host> --undo`.
 */
export function importHost(host: HostDefinition, options: ImportOptions): Imported {
  const file = hostServersFile(host, options);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file.path);
  } catch {
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `${file.path}: no such file, so ${host.name} has no servers to import`,
    );
  }
  const hostServers = openServersDocument(file, bytes).servers();
  const configFile = { path: options.configPath, format: 'json' as const, serversPath: ['servers'] };
  const result: Imported = {
    host: host.id,
    file: file.path,
    configPath: options.configPath,
    imported: [],
    alreadyThere: [],
    clashes: [],
    skipped: [],
    removedFromHost: [],
    backup: hostBackupPath(host.id, options.env),
  };
  const cliEntry = options.cliEntry ?? options.replace?.args[0];
  const converted = new Map<string, Record<string, unknown>>();
  for (const [name, raw] of Object.entries(hostServers)) {
    if (isMcpToolsEntry(name, raw, cliEntry)) continue;
    try {
      converted.set(name, host.importEntry(raw));
    } catch (error) {
      if (!(error instanceof UnimportableEntry)) throw error;
      result.skipped.push({ name, reason: error.message });
    }
  }
  const record = hostRecord(host, options.env);
  const change = { hostName: host.name, env: options.env, beforeWrite: options.beforeWrite };
  changeServers(
    configFile,
    record,
    (document) => {
      result.imported = [];
      result.alreadyThere = [];
      result.clashes = [];
      const existing = document.servers();
      for (const [name, entry] of converted) {
        if (!Object.hasOwn(existing, name)) {
          document.set(name, entry);
          result.imported.push(name);
        } else if (isDeepStrictEqual(existing[name], entry)) result.alreadyThere.push(name);
        else result.clashes.push({ name, reason: `${options.configPath} has another server named ${name}` });
      }
      return { added: [...result.imported], removed: [] };
    },
    change,
  );
  if (options.replace !== undefined) {
    // The host is about to start mcptools with this file: it must exist even when nothing moved.
    ensureMcpToolsConfig(options.configPath);
    const target = options.replace;
    const moved = [...result.imported, ...result.alreadyThere];
    const name = entryName(target);
    try {
      changeServers(
        file,
        record,
        (document) => {
          const present = document.servers();
          result.removedFromHost = moved.filter((server) => Object.hasOwn(present, server));
          for (const server of result.removedFromHost) document.remove(server);
          document.set(name, host.entry(target));
          return { added: [name], removed: result.removedFromHost };
        },
        change,
      );
    } catch (error) {
      // The configuration was written already: say so, and how to take it back.
      if (!McpToolsError.isInstance(error)) throw error;
      throw new McpToolsError(
        error.code,
        `${error.message} (the servers were copied into ${options.configPath} already: \`mcptools import ${host.id} --undo\` takes them out)`,
        { cause: error, data: error.data },
      );
    }
    result.entry = name;
  }
  return result;
}
