import { randomBytes } from 'node:crypto';

/**
 * Writes `text` to `path` through a temporary file of `mode` renamed over it, so a reader sees
 * the old file or the new one, never half of one. The mode is set again after writing (the
 * umask may have narrowed it; it must never be wider), and the temporary file is removed when
 * the rename fails.
 */
export async function writeFileAtomically(path: string, text: string, mode: number): Promise<void> {
  // Loaded by the first write: node:fs/promises is about ten internal modules a read needs none of.
  const { chmod, open, rename, rm } = await import('node:fs/promises');
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
