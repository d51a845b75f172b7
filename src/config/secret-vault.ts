import { hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ClusterSeal } from '../crypto/cluster-seal.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { stateDir } from '../paths/state-dir.js';

/** The variable holding the key that seals the secret vault (hex or base64 of 32+ bytes). */
export const VAULT_KEY_ENV = 'MCPTOOLS_VAULT_KEY';

/** The vault file: `secrets.json` in the state folder. */
export function defaultSecretVaultPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return join(stateDir(env as NodeJS.ProcessEnv), 'secrets.json');
}

/** The file's content: per server entry, per variable name, the value (sealed when a key is set). */
interface SecretVaultFile {
  version: 1;
  entries: Record<string, Record<string, string>>;
}

/** How long a lock may go without its holder touching it before another process may break it. */
const STALE_LOCK_MS = 10_000;

/**
 * The secrets `mcptools add` was given for a server entry (a value its registry marks secret),
 * kept out of every project file: one owner-only file in the state folder (0600 in a 0700
 * folder, written through a temporary file renamed over it, under a lock, as the OAuth vault).
 * With {@link VAULT_KEY_ENV} set, each value is sealed with AES-256-GCM bound to its entry and
 * name, so a copied file or a value moved to another entry does not open. The configuration
 * refers to a value as `${vault:<entry>/<NAME>}`.
 */
export class SecretVault {
  readonly path: string;
  readonly #seal: ClusterSeal | undefined;

  constructor(path: string, key?: string) {
    this.path = path;
    this.#seal = key === undefined || key.trim() === '' ? undefined : sealFor(key);
  }

  /** The vault of `env`: its default path and its key, if one is set. */
  static fromEnv(env: Readonly<Record<string, string | undefined>> = process.env): SecretVault {
    return new SecretVault(defaultSecretVaultPath(env), env[VAULT_KEY_ENV]);
  }

  /** Whether values are sealed. */
  get sealed(): boolean {
    return this.#seal !== undefined;
  }

  /**
   * The value of `name` for `entry`, read synchronously (the configuration resolves references
   * while it is read). `undefined` when absent; a sealed value that does not open is an error
   * that says so without the value.
   */
  get(entry: string, name: string): string | undefined {
    const stored = this.#read().entries[entry]?.[name];
    if (stored === undefined) return undefined;
    if (!stored.startsWith('v1.')) {
      if (this.#seal !== undefined)
        throw new McpToolsError(
          'CONFIG_INVALID',
          `the secret ${entry}/${name} in ${this.path} is not sealed`,
        );
      return stored;
    }
    const opened = this.#seal?.open(stored, `${entry}/${name}`);
    if (opened === undefined)
      throw new McpToolsError(
        'CONFIG_INVALID',
        `the secret ${entry}/${name} in ${this.path} is sealed and does not open with ${VAULT_KEY_ENV}`,
      );
    return opened;
  }

  /** The variable names stored for `entry`. */
  names(entry: string): string[] {
    return Object.keys(this.#read().entries[entry] ?? {});
  }

  /** Stores `values` for `entry`, beside its other values. */
  async set(entry: string, values: Readonly<Record<string, string>>): Promise<void> {
    await this.#update((file) => {
      const current = { ...file.entries[entry] };
      for (const [name, value] of Object.entries(values))
        current[name] = this.#seal === undefined ? value : this.#seal.seal(value, `${entry}/${name}`);
      file.entries[entry] = current;
    });
  }

  /** Forgets the values of `entry` other than `keep`. */
  async retain(entry: string, keep: readonly string[]): Promise<void> {
    await this.#update((file) => {
      const current = file.entries[entry];
      if (current === undefined) return;
      const kept = Object.fromEntries(Object.entries(current).filter(([name]) => keep.includes(name)));
      if (Object.keys(kept).length > 0) file.entries[entry] = kept;
      else delete file.entries[entry];
    });
  }

  /** Forgets every value of `entry`; resolves with the names removed. */
  async remove(entry: string): Promise<string[]> {
    let removed: string[] = [];
    await this.#update((file) => {
      removed = Object.keys(file.entries[entry] ?? {});
      delete file.entries[entry];
    });
    return removed;
  }

  #read(): SecretVaultFile {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as SecretVaultFile;
      if (typeof parsed?.entries !== 'object' || parsed.entries === null) throw new Error();
      return { version: 1, entries: { ...parsed.entries } };
    } catch {
      // Never quote the content: it holds secrets.
      throw new McpToolsError('CONFIG_INVALID', `the secret vault ${this.path} is not valid JSON`);
    }
  }

  async #update(change: (file: SecretVaultFile) => void): Promise<void> {
    // Loaded by the first write: reading a configuration with vault references needs none of it.
    const { chmod, mkdir, open, rename, rm } = await import('node:fs/promises');
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const { default: lockfile } = await import('proper-lockfile');
    const release = await lockfile.lock(this.path, {
      realpath: false,
      lockfilePath: `${this.path}.lock`,
      stale: STALE_LOCK_MS,
      retries: { retries: 200, factor: 1.3, minTimeout: 10, maxTimeout: 250 },
    });
    try {
      const file = this.#read();
      change(file);
      const temporary = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await chmod(temporary, 0o600);
        await rename(temporary, this.path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    } finally {
      await release().catch(() => undefined);
    }
  }
}

/** The seal of a vault key given as hex or base64 text of at least 32 bytes. */
function sealFor(text: string): ClusterSeal {
  const value = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) bytes = Buffer.from(value, 'base64');
  if (bytes === undefined || bytes.length < 32)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `${VAULT_KEY_ENV} must be 32+ random bytes as hex or base64 (generate one with: openssl rand -base64 32)`,
      { recoverable: false },
    );
  const key = Buffer.from(hkdfSync('sha256', bytes, 'mcptools-vault', 'secrets', 32));
  const keyId = Buffer.from(hkdfSync('sha256', bytes, 'mcptools-vault', 'key-id', 4)).toString('hex');
  return new ClusterSeal(key, keyId);
}
