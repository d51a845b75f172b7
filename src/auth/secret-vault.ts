import {
  defaultSecretVaultPath,
  readVaultFile,
  readVaultValue,
  sealFor,
  type VaultFileContent,
} from '../config/vault-file.js';
import { VAULT_KEY_ENV, type VaultSeal } from '../config/vault-seal.js';
import { QUICK_FILE_LOCK, underFileLock } from '../paths/under-file-lock.js';
import { writeFileAtomically } from '../paths/write-file-atomically.js';

export { defaultSecretVaultPath, VAULT_KEY_ENV };

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
  readonly #seal: VaultSeal | undefined;

  constructor(path: string, key?: string) {
    this.path = path;
    this.#seal = sealFor(key);
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
    return readVaultValue(this.path, this.#seal, entry, name);
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

  #read(): VaultFileContent {
    return readVaultFile(this.path);
  }

  async #update(change: (file: VaultFileContent) => void): Promise<void> {
    await underFileLock(this.path, QUICK_FILE_LOCK, async () => {
      const file = this.#read();
      change(file);
      await writeFileAtomically(this.path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
    });
  }
}
