import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { stateDir } from '../paths/state-dir.js';
import { VAULT_KEY_ENV, type VaultSeal, vaultSeal } from './vault-seal.js';

/** The secret vault file's content: per server entry, per variable name, the value (sealed when a key is set). */
export interface VaultFileContent {
  version: 1;
  entries: Record<string, Record<string, string>>;
}

/** The vault file: `secrets.json` in the state folder. */
export function defaultSecretVaultPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return join(stateDir(env as NodeJS.ProcessEnv), 'secrets.json');
}

/** Reads the vault file (absent: empty); never quotes its content in an error. */
export function readVaultFile(path: string): VaultFileContent {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as VaultFileContent;
    if (typeof parsed?.entries !== 'object' || parsed.entries === null) throw new Error();
    return { version: 1, entries: { ...parsed.entries } };
  } catch {
    throw new McpToolsError('CONFIG_INVALID', `the secret vault ${path} is not valid JSON`);
  }
}

/** The seal of `key`, or none for an unset key. */
export function sealFor(key: string | undefined): VaultSeal | undefined {
  return key === undefined || key.trim() === '' ? undefined : vaultSeal(key);
}

/**
 * One value of the vault at `path`, opened with `seal` when values are sealed: `undefined` when
 * absent; a value that does not open is an error saying so, without the value.
 */
export function readVaultValue(
  path: string,
  seal: VaultSeal | undefined,
  entry: string,
  name: string,
): string | undefined {
  const stored = readVaultFile(path).entries[entry]?.[name];
  if (stored === undefined) return undefined;
  if (!stored.startsWith('v1.')) {
    if (seal !== undefined)
      throw new McpToolsError('CONFIG_INVALID', `the secret ${entry}/${name} in ${path} is not sealed`);
    return stored;
  }
  const opened = seal?.open(stored, `${entry}/${name}`);
  if (opened === undefined)
    throw new McpToolsError(
      'CONFIG_INVALID',
      `the secret ${entry}/${name} in ${path} is sealed and does not open with ${VAULT_KEY_ENV}`,
    );
  return opened;
}

/** The vault of `env` as a lookup, opened when the first reference is read (most files hold none). */
export function defaultVaultLookup(
  env: Readonly<Record<string, string | undefined>>,
): (entry: string, name: string) => string | undefined {
  let opened: { path: string; seal: VaultSeal | undefined } | undefined;
  return (entry, name) => {
    opened ??= { path: defaultSecretVaultPath(env), seal: sealFor(env[VAULT_KEY_ENV]) };
    return readVaultValue(opened.path, opened.seal, entry, name);
  };
}
