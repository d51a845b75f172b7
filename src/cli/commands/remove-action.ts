import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { removeServer } from '../../catalog/remove-server.js';
import { loadConfig } from '../../config/load-config.js';
import { cliPinsFile } from '../../pins/cli-pins.js';
import { readPinFile, updatePinFile } from '../../pins/pin-file.js';
import { printJson, printLine } from '../print.js';
import { globalOptions } from './global-options.js';
import { catalogConfigFile } from './registry-action.js';

/** Runs `mcptools remove <entry>`: the entry, its lock, its vault secrets and its pins. */
export async function removeAction(entry: string, _options: unknown, command: Command): Promise<void> {
  const configFile = catalogConfigFile(command);
  // The pin file the configuration names, if it can be read; else the default one.
  const config = await loadConfig(configFile, { optional: true, onWarning: () => undefined }).catch(
    () => undefined,
  );
  const pinsFile = cliPinsFile(config, undefined);
  const forgetPins = async (name: string) => {
    if (!existsSync(pinsFile) || readPinFile(pinsFile).servers[name] === undefined) return false;
    await updatePinFile(pinsFile, (content) => {
      delete content.servers[name];
    });
    return true;
  };
  const result = await removeServer({ configFile, entry, forgetPins });
  if (globalOptions(command).json) {
    printJson(result);
    return;
  }
  const removed = [
    result.config ? `the entry in ${configFile}` : undefined,
    result.lock ? 'its lock' : undefined,
    result.secrets.length > 0 ? `its secrets in the vault (${result.secrets.join(', ')})` : undefined,
    result.pins ? 'its pins' : undefined,
  ].filter(Boolean);
  printLine(`Removed ${entry}: ${removed.join(', ')}.`);
}
