import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A cached answer: when it was fetched and its JSON. */
export interface CachedAnswer {
  fetchedAt: string;
  body: unknown;
}

/**
 * The registry answers kept for offline use, one file per URL under `<state>/catalog-cache/`
 * (named by the SHA-256 of the URL, so no header or token is part of a name). Request headers are
 * never stored. Written through a temporary file renamed over the old one.
 */
export class CatalogCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The cached answer to `url`, if any. */
  async get(url: string): Promise<CachedAnswer | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.#file(url), 'utf8')) as CachedAnswer;
      return typeof parsed?.fetchedAt === 'string' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps `body` as the answer to `url`. A cache that cannot be written is not an error. */
  async put(url: string, body: unknown): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const file = this.#file(url);
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      const answer: CachedAnswer = { fetchedAt: new Date().toISOString(), body };
      await writeFile(temporary, JSON.stringify(answer), { mode: 0o600 });
      await rename(temporary, file);
    } catch {
      // Offline use is a convenience: a read-only state folder must not fail the command.
    }
  }

  #file(url: string): string {
    return join(this.dir, `${createHash('sha256').update(url).digest('hex')}.json`);
  }
}
