import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { findOnPath } from '../paths/find-on-path.js';
import { HOSTS } from './host-definitions.js';
import type { HostEnvironment } from './host-environment.js';
import { isMcpToolsEntry } from './is-mcptools-entry.js';
import { openServersDocument } from './open-servers-document.js';

/** One row of `mcptools connect --list`. */
export interface HostStatus {
  host: string;
  name: string;
  file: string;
  /** The file exists, one of the host's commands is on `PATH`, or (Claude Desktop) its folder exists. */
  installed: boolean;
  fileExists: boolean;
  /** The command found on `PATH`, when one is. */
  binary?: string;
  /** The entries that are mcptools; `undefined` when the file could not be read. */
  mcptools?: string[];
  /** Why the file could not be read (never its content). */
  error?: string;
}

/**
 * Which hosts are installed here and which already have mcptools (by name, or an entry starting
 * `cliEntry`), read from their files only.
 */
export function listHosts(environment: HostEnvironment, cliEntry?: string): HostStatus[] {
  return HOSTS.map((host) => {
    const file = host.configFile(environment);
    const fileExists = existsSync(file);
    const binary = host.binaries
      .map((name) => findOnPath(name, environment))
      .find((found) => found !== undefined);
    const status: HostStatus = {
      host: host.id,
      name: host.name,
      file,
      fileExists,
      installed:
        fileExists || binary !== undefined || (host.id === 'claude-desktop' && existsSync(dirname(file))),
      ...(binary === undefined ? {} : { binary }),
    };
    if (!fileExists) return { ...status, mcptools: [] };
    try {
      const servers = openServersDocument(
        { path: file, format: host.format, serversPath: host.serversPath },
        readFileSync(file),
      ).servers();
      status.mcptools = Object.entries(servers)
        .filter(([name, entry]) => isMcpToolsEntry(name, entry, cliEntry))
        .map(([name]) => name);
    } catch (error) {
      status.error = error instanceof Error ? error.message : 'unreadable';
    }
    return status;
  });
}
