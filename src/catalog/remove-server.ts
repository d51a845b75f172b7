import { existsSync } from 'node:fs';
import { lockFileFor, readCatalogLock, updateCatalogLock } from '../config/catalog-lock.js';
import { SecretVault } from '../config/secret-vault.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { readPinFile, updatePinFile } from '../pins/pin-file.js';
import { readConfigJson, writeConfigJson } from './config-file-entries.js';

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
 * secrets in the vault and its pins (approved and pending definitions) in `pinsFile`. An entry
 * found nowhere is an error.
 */
export async function removeServer(options: {
  configFile: string;
  entry: string;
  pinsFile: string;
  env?: NodeJS.ProcessEnv;
}): Promise<RemoveResult> {
  const { configFile, entry } = options;
  const config = readConfigJson(configFile);
  const inConfig = config.servers[entry] !== undefined;
  const lockFile = lockFileFor(configFile);
  const inLock = readCatalogLock(lockFile).servers[entry] !== undefined;
  const vault = SecretVault.fromEnv(options.env ?? process.env);
  const inVault = vault.names(entry).length > 0;
  const inPins = existsSync(options.pinsFile) && readPinFile(options.pinsFile).servers[entry] !== undefined;
  if (!inConfig && !inLock && !inVault && !inPins)
    throw new McpToolsError('INVALID_ARGUMENTS', `${configFile} has no server "${entry}"`, {
      recoverable: false,
    });
  if (inConfig) {
    delete config.servers[entry];
    await writeConfigJson(configFile, config);
  }
  if (inLock)
    await updateCatalogLock(lockFile, (lock) => {
      delete lock.servers[entry];
    });
  const secrets = inVault ? await vault.remove(entry) : [];
  if (inPins)
    await updatePinFile(options.pinsFile, (content) => {
      delete content.servers[entry];
    });
  return { entry, config: inConfig, lock: inLock, secrets, pins: inPins };
}
