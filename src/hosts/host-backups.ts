import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { isPlainObject } from '../json/is-plain-object.js';
import { stateDir } from '../paths/state-dir.js';

/** One file `connect` or `import` changed, with what undoes it. */
export interface BackedUpFile {
  path: string;
  /** `json` or `toml`, and where the server map sits: what a structural undo edits. */
  format: 'json' | 'toml';
  serversPath: string[];
  /** The file before the first change, base64; `null` when it did not exist. */
  before: string | null;
  /** The file as mcptools last wrote it, base64; `null` when it removed it. */
  after: string | null;
  /** Entries mcptools added (or replaced), and entries it removed. */
  added: string[];
  removed: string[];
  /** Folders mcptools created for the file, removed again by undo when empty. */
  createdDirs: string[];
}

/** The undo record of one host: every file its `connect` and `import` changed. */
export interface HostBackup {
  host: string;
  createdAt: string;
  files: BackedUpFile[];
}

/**
 * Where undo records live: `<state dir>/host-backups/<host>.json`, in an owner-only folder, each
 * file owner-only, since a host's file may hold its servers' tokens in clear.
 */
export function hostBackupPath(host: string, env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'host-backups', `${host}.json`);
}

/** The host's undo record, or `undefined` when nothing is recorded. */
export function readHostBackup(host: string, env: NodeJS.ProcessEnv): HostBackup | undefined {
  const path = hostBackupPath(host, env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isPlainObject(value) || !Array.isArray(value.files))
    throw new McpToolsError(
      'CONFIG_INVALID',
      `${path}: not an undo record of mcptools; move it away to connect again`,
    );
  return value as unknown as HostBackup;
}

/** Writes the host's undo record (owner-only). */
export function writeHostBackup(record: HostBackup, env: NodeJS.ProcessEnv): string {
  const path = hostBackupPath(record.host, env);
  const dir = join(path, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/** Deletes the host's undo record once it has been applied. */
export function removeHostBackup(host: string, env: NodeJS.ProcessEnv): void {
  rmSync(hostBackupPath(host, env), { force: true });
}

/** Base64 of bytes, `null` for a missing file. */
export const encodeBytes = (bytes: Buffer | undefined): string | null =>
  bytes === undefined ? null : bytes.toString('base64');

/** The bytes of {@link encodeBytes}. */
export const decodeBytes = (text: string | null): Buffer | undefined =>
  text === null ? undefined : Buffer.from(text, 'base64');
