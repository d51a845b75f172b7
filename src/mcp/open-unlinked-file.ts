import { closeSync, constants, mkdtempSync, openSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Opens a new, empty file for appending and reading that has no name on disk: it is created
 * (mode `0o600`) in a private directory of its own (`mcptools-…` under the temp directory,
 * mode `0o700`), then its name and the directory are removed at once, so nothing is left
 * behind even if the process is killed. The file lives until its last descriptor closes.
 * Returns the descriptor, or `undefined` on Windows (an open file cannot be unlinked there)
 * or when the temp directory cannot be written.
 */
export function openUnlinkedFile(): number | undefined {
  if (process.platform === 'win32') return undefined;
  let directory: string | undefined;
  let fd: number | undefined;
  try {
    directory = mkdtempSync(join(tmpdir(), 'mcptools-'));
    const path = join(directory, 'stderr');
    // O_APPEND: every write (the child's) lands at the end, also after the file is truncated.
    fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL, 0o600);
    unlinkSync(path);
    rmdirSync(directory);
    return fd;
  } catch {
    if (fd !== undefined) closeSync(fd);
    if (directory !== undefined) {
      try {
        rmSync(directory, { recursive: true, force: true });
      } catch {}
    }
    return undefined;
  }
}
