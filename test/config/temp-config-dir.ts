import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A scratch directory for fixture config files, removed by `remove()`. */
export interface TempConfigDir {
  path: string;
  /** Writes `content` (a string, or an object as JSON) at `relativePath`; returns the absolute path. */
  write(relativePath: string, content: string | object): Promise<string>;
  remove(): Promise<void>;
}

/** Creates a {@link TempConfigDir} under the system temp directory. */
export async function createTempConfigDir(): Promise<TempConfigDir> {
  const path = await mkdtemp(join(tmpdir(), 'mcptools-config-'));
  return {
    path,
    async write(relativePath, content) {
      const file = join(path, relativePath);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return file;
    },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}
