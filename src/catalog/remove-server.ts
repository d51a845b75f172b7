import { SecretVault } from '../auth/secret-vault.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { lockFileFor, readCatalogLock, updateCatalogLock } from './catalog-lock.js';
import { readConfigJson, setConfigEntry } from './config-file-entries.js';

/** What {@link removeServer} removed. */
export interface RemoveResult {
  entry: string;
  /** It was in the configuration. */
  config: boolean;
  /** It was in the lock file. */
  lock: boolean;
  /** The names of its secrets removed from the vault. */
  secrets: string[];
  /** Its pins were removed from the pin file. */
  pins: boolean;
}

/**
 * Removes `entry` everywhere it left something: the configuration, the lock file beside it, its
 * secrets in the vault and (through `forgetPins`) its pins. An entry found in none of the first
 * three is an error.
 */
export async function removeServer(options: {
  configFile: string;
  entry: string;
  /** Forgets the entry's pins; resolves with whether it had any (the CLI gives the pin file's). */
  forgetPins?: (entry: string) => Promise<boolean>;
  env?: NodeJS.ProcessEnv;
}): Promise<RemoveResult> {
  const { configFile, entry } = options;
  const config = readConfigJson(configFile);
  const inConfig = config.servers[entry] !== undefined;
  const lockFile = lockFileFor(configFile);
  const inLock = readCatalogLock(lockFile).servers[entry] !== undefined;
  const vault = SecretVault.fromEnv(options.env ?? process.env);
  const inVault = vault.names(entry).length > 0;
  if (!inConfig && !inLock && !inVault)
    throw new McpToolsError('INVALID_ARGUMENTS', `${configFile} has no server "${entry}"`, {
      recoverable: false,
    });
  if (inConfig) await setConfigEntry(configFile, entry, undefined);
  if (inLock)
    await updateCatalogLock(lockFile, (lock) => {
      delete lock.servers[entry];
    });
  const secrets = inVault ? await vault.remove(entry) : [];
  const pins = (await options.forgetPins?.(entry)) ?? false;
  return { entry, config: inConfig, lock: inLock, secrets, pins };
}
