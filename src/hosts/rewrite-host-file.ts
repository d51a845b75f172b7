import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';

/** A file's bytes and modification time as read, `undefined` bytes when it does not exist. */
interface FileState {
  bytes: Buffer | undefined;
  mtimeMs: number | undefined;
  mode: number | undefined;
}

function stateOf(path: string): FileState {
  try {
    const stat = statSync(path);
    return { bytes: readFileSync(path), mtimeMs: stat.mtimeMs, mode: stat.mode & 0o777 };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { bytes: undefined, mtimeMs: undefined, mode: undefined };
    throw error;
  }
}

const unchanged = (a: FileState, b: FileState) =>
  a.mtimeMs === b.mtimeMs &&
  (a.bytes === undefined ? b.bytes === undefined : b.bytes !== undefined && a.bytes.equals(b.bytes));

/** Options of {@link rewriteHostFile}. */
export interface RewriteOptions {
  /** The host's name, for the refusal. */
  hostName: string;
  /**
   * Called after the new content is computed and before the file is checked again: the moment a
   * running host could write the file. Tests use it to be that host.
   */
  beforeWrite?: () => void;
}

/** What {@link rewriteHostFile} read and wrote. */
export interface Rewritten {
  before: Buffer | undefined;
  after: Buffer | undefined;
}

/**
 * Rewrites a file a running program may rewrite too (Claude Code rewrites `~/.claude.json` while
 * it runs): reads it, computes the new content from what it read (`undefined` removes the file),
 * and writes through a temporary file and a rename in the same folder, so a reader never sees half
 * a file. If the file changed between the read and the write (content or modification time), the
 * whole read-compute-write is retried once from the new content; a second change refuses, with
 * nothing written. A symbolic link is followed, so the file it points at is the one rewritten.
 */
export function rewriteHostFile(
  path: string,
  compute: (before: Buffer | undefined) => Buffer | undefined,
  options: RewriteOptions,
): Rewritten {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {}
  for (let attempt = 0; ; attempt++) {
    const read = stateOf(target);
    const after = compute(read.bytes);
    options.beforeWrite?.();
    const temp =
      after === undefined
        ? undefined
        : join(dirname(target), `.${basename(target)}.mcptools-${randomBytes(6).toString('hex')}`);
    try {
      if (temp !== undefined && after !== undefined) {
        // The host's own mode when it had the file; owner-only for a new one (it may hold tokens).
        const fd = openSync(temp, 'wx', read.mode ?? 0o600);
        try {
          writeSync(fd, after);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
      if (!unchanged(read, stateOf(target))) {
        if (attempt === 0) continue;
        throw new McpToolsError(
          'CONFIG_INVALID',
          `${path} changed twice while mcptools was writing it (${options.hostName} may be running and rewriting it): nothing was written; quit ${options.hostName} and run the command again`,
          { data: { file: path, reason: 'changed-while-writing' } },
        );
      }
      if (temp !== undefined) renameSync(temp, target);
      else if (read.bytes !== undefined) unlinkSync(target);
      return { before: read.bytes, after };
    } finally {
      if (temp !== undefined) rmSync(temp, { force: true });
    }
  }
}
