import { readFile, stat } from 'node:fs/promises';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { defaultVaultPath } from '../paths/default-vault-path.js';
import { QUICK_FILE_LOCK, underFileLock } from '../paths/under-file-lock.js';
import { writeFileAtomically } from '../paths/write-file-atomically.js';
import type { TokenStore, VaultEntry, VaultUpdate } from './token-store.js';

interface VaultFile {
  version: 1;
  servers: Record<string, VaultEntry>;
}

/**
 * The OAuth vault: one JSON file (by default {@link defaultVaultPath}) holding every server's
 * client registration and tokens. The file and its directory are created owner-only (0600,
 * 0700); each write goes to a temporary file that is renamed over the old one, so a reader never
 * sees half a file. Every update holds a lock file (`<vault>.lock`, broken when stale after a
 * crash) and re-reads the file under it, so two processes refreshing at once never lose the
 * newer token.
 */
export class FileTokenStore implements TokenStore {
  /** The vault file's path. */
  readonly path: string;
  /**
   * The last file read and its identity. A request over HTTP asks for the tokens each time:
   * an unchanged file (same inode, size and mtime; every write is a rename of a new file) is
   * not read and parsed again.
   */
  #cached: { key: string; vault: VaultFile } | undefined;

  constructor(path: string = defaultVaultPath()) {
    this.path = path;
  }

  async get(serverUrl: string): Promise<VaultEntry | undefined> {
    return (await this.#read()).servers[serverUrl];
  }

  async list(): Promise<VaultEntry[]> {
    return Object.values((await this.#read()).servers);
  }

  async update(serverUrl: string, update: VaultUpdate): Promise<VaultEntry | undefined> {
    return underFileLock(this.path, QUICK_FILE_LOCK, async () => {
      const vault = await this.#read();
      const next = await update(vault.servers[serverUrl]);
      if (next === undefined) delete vault.servers[serverUrl];
      else vault.servers[serverUrl] = next;
      await this.#write(vault);
      return next;
    });
  }

  async #read(): Promise<VaultFile> {
    let text: string;
    let key: string;
    try {
      const info = await stat(this.path, { bigint: true });
      key = `${info.ino}:${info.size}:${info.mtimeNs}`;
      if (this.#cached?.key === key) return { version: 1, servers: { ...this.#cached.vault.servers } };
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, servers: {} };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as VaultFile;
      if (typeof parsed !== 'object' || parsed === null || typeof parsed.servers !== 'object')
        throw new Error();
      this.#cached = { key, vault: { version: 1, servers: { ...parsed.servers } } };
      return { version: 1, servers: { ...parsed.servers } };
    } catch {
      // Never quote the content: it holds tokens.
      throw new McpToolsError(
        'CONFIG_INVALID',
        `the OAuth vault ${this.path} is not valid JSON; delete it to start over`,
      );
    }
  }

  async #write(vault: VaultFile): Promise<void> {
    await writeFileAtomically(
      this.path,
      `${JSON.stringify(vault, null, 2)}
`,
      0o600,
    );
  }
}
