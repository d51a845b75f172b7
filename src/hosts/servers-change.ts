import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type BackedUpFile,
  decodeBytes,
  encodeBytes,
  type HostBackup,
  removeHostBackup,
  writeHostBackup,
} from './host-backups.js';
import { openServersDocument, type ServersFile } from './open-servers-document.js';
import { type Rewritten, rewriteHostFile } from './rewrite-host-file.js';
import type { ServersDocument } from './servers-document.js';

/** Options shared by {@link changeServers} and {@link undoServersFile}. */
export interface ChangeOptions {
  hostName: string;
  env: NodeJS.ProcessEnv;
  /** See `RewriteOptions.beforeWrite`. */
  beforeWrite?: () => void;
}

/** What one edit did to the server map. */
export interface ServersEdit {
  added: string[];
  removed: string[];
}

/**
 * Edits the server map of one file in place and records how to undo it in the host's record,
 * which is written before the file is (and put back when the write is refused). A file changed
 * since mcptools last wrote it gets its undo baseline moved to that file minus mcptools' own
 * entries, so undo never throws away what the host wrote in between.
 */
export function changeServers(
  file: ServersFile,
  record: HostBackup,
  edit: (document: ServersDocument) => ServersEdit,
  options: ChangeOptions,
): Rewritten & ServersEdit {
  const previous = structuredClone(record);
  const createdDirs = missingDirs(dirname(file.path));
  let result: ServersEdit = { added: [], removed: [] };
  try {
    if (createdDirs.length > 0) mkdirSync(dirname(file.path), { recursive: true });
    const written = rewriteHostFile(
      file.path,
      (bytes) => {
        // A retry starts again from the record as it was: the baseline is what this attempt read.
        record.files = structuredClone(previous.files);
        const document = openServersDocument(file, bytes);
        result = edit(document);
        const text = document.text();
        // Nothing to write into a file that does not exist: it stays absent.
        if (text === '' && bytes === undefined) return undefined;
        const after = Buffer.from(text, 'utf8');
        let entry = record.files.find((candidate) => candidate.path === file.path);
        if (entry === undefined) {
          entry = {
            path: file.path,
            format: file.format,
            serversPath: [...file.serversPath],
            before: encodeBytes(bytes),
            after: null,
            added: [],
            removed: [],
            createdDirs,
          };
          record.files.push(entry);
        } else if (!sameBytes(decodeBytes(entry.after), bytes)) {
          entry.before = encodeBytes(structuralUndo(bytes, entry));
        }
        entry.added = union(entry.added, result.added);
        entry.removed = union(entry.removed, result.removed);
        entry.after = encodeBytes(after);
        writeHostBackup(record, options.env);
        return after;
      },
      options,
    );
    return { ...written, ...result };
  } catch (error) {
    record.files = previous.files;
    if (previous.files.length > 0) writeHostBackup(previous, options.env);
    else removeEmptyRecord(record, options.env);
    for (const dir of createdDirs) rmdirQuietly(dir);
    throw error;
  }
}

/** How {@link undoServersFile} put a file back. */
export type UndoOutcome = 'exact' | 'entries';

/**
 * Puts one recorded file back. When it is exactly as mcptools last wrote it, its bytes before the
 * first change come back (or it is removed, with the folders created for it, when it did not
 * exist); when the host changed it since, only the entries mcptools added or removed are put back
 * and the rest stays as it is now.
 */
export function undoServersFile(file: BackedUpFile, options: ChangeOptions): UndoOutcome {
  let outcome: UndoOutcome = 'exact';
  rewriteHostFile(
    file.path,
    (current) => {
      if (sameBytes(current, decodeBytes(file.after))) {
        outcome = 'exact';
        return decodeBytes(file.before);
      }
      outcome = 'entries';
      return structuralUndo(current, file);
    },
    options,
  );
  if (outcome === 'exact' && file.before === null) for (const dir of file.createdDirs) rmdirQuietly(dir);
  return outcome;
}

/**
 * `current` with every entry mcptools added or removed set back to its value before the first
 * change (or removed when it did not exist then); everything else as it is.
 */
export function structuralUndo(current: Buffer | undefined, file: BackedUpFile): Buffer | undefined {
  if (current === undefined) return undefined;
  const before = openServersDocument(file, decodeBytes(file.before)).servers();
  const document = openServersDocument(file, current);
  for (const name of union(file.added, file.removed)) {
    const old = before[name];
    if (old !== undefined && typeof old === 'object' && old !== null)
      document.set(name, old as Record<string, unknown>);
    else document.remove(name);
  }
  return Buffer.from(document.text(), 'utf8');
}

const sameBytes = (a: Buffer | undefined, b: Buffer | undefined) =>
  a === undefined ? b === undefined : b !== undefined && a.equals(b);

const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];

/** The folders from `dir` up that do not exist yet, deepest first. */
function missingDirs(dir: string): string[] {
  const missing: string[] = [];
  for (let current = dir; !existsSync(current); current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  return missing;
}

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {}
}

function removeEmptyRecord(record: HostBackup, env: NodeJS.ProcessEnv): void {
  removeHostBackup(record.host, env);
}
