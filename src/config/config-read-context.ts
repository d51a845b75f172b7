import type { ConfigErrorLocation } from './config-error.js';
import type { ConfigValidator } from './config-validator.js';
import type { VaultLookup } from './vault-reference.js';

/** A `${VAR}` whose variable is not set, and where it was written. */
export interface UnsetVariable {
  location: ConfigErrorLocation;
  variable: string;
}

/** What every format reader needs besides the parsed value. */
export interface ConfigReadContext {
  /** The file as named in messages (relative to `cwd` when inside it), or `config` for objects. */
  file: string;
  /** Directory that relative `cwd`/`workspaceDir` values resolve against; unset keeps them as written. */
  baseDir?: string;
  /** The project directory for editor variables (`${workspaceFolder}`). */
  workspaceFolder: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Receives ignored keys and unsupported placeholders; never values. */
  warn: (message: string) => void;
  /** Checks the shapes of the file's top level and of each server entry. */
  validator: ConfigValidator;
  /**
   * Collects every unset variable of the server entries, so that one error names them all
   * (fixing one and meeting the next is a slow way to learn a file's needs).
   */
  unset: UnsetVariable[];
  /** Resolves `${vault:<entry>/<NAME>}` in server entries (the secret vault of the state folder). */
  vault?: VaultLookup;
}
