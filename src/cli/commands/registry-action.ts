import { resolve } from 'node:path';
import type { Command } from 'commander';
import { catalogCacheDir, describeTarget, parseServerSpec } from '../../catalog/add-server.js';
import { catalogVersions, findCatalogEntry, searchCatalogs } from '../../catalog/catalog-lookup.js';
import type { CatalogEntry } from '../../catalog/catalog-records.js';
import { catalogStatus, catalogStatusMessage } from '../../catalog/catalog-status.js';
import { configuredSources } from '../../catalog/configured-sources.js';
import { installTargets, targetRuntime } from '../../catalog/install-target.js';
import { type InputSlot, inputsOf } from '../../catalog/server-inputs.js';
import { firstLine, printJson, printLine, table } from '../print.js';
import { warnOnStderr } from '../warn-on-stderr.js';
import { globalOptions } from './global-options.js';

/** The `mcptools.json` a catalog command reads and writes: `--config`, else `./mcptools.json`. */
export function catalogConfigFile(command: Command): string {
  return resolve(globalOptions(command).config ?? 'mcptools.json');
}

/** The lookup options every catalog command uses: the state folder's cache, warnings on stderr. */
export function lookupOptions() {
  return { cacheDir: catalogCacheDir(), onWarning: warnOnStderr };
}

/** Runs `mcptools registry search <text>`. */
export async function registrySearchAction(
  text: string,
  options: { limit?: number },
  command: Command,
): Promise<void> {
  const sources = configuredSources(catalogConfigFile(command));
  const found = await searchCatalogs(sources, text, { ...lookupOptions(), limit: options.limit ?? 30 });
  if (globalOptions(command).json) {
    printJson({
      servers: found.map(({ entry, source }) => ({
        name: entry.server.name,
        version: entry.server.version,
        description: entry.server.description,
        status: catalogStatus(entry),
        registry: source.url,
      })),
    });
    return;
  }
  if (found.length === 0) {
    printLine(
      `No server whose name contains "${text}" in ${sources.map((source) => source.url).join(', ')}.`,
    );
    return;
  }
  const rows = [['NAME', 'VERSION', 'STATUS', 'DESCRIPTION']];
  for (const { entry } of found)
    rows.push([
      entry.server.name,
      entry.server.version,
      catalogStatus(entry),
      firstLine(entry.server.description, 60),
    ]);
  for (const line of table(rows)) printLine(line);
  printLine(`\nmcptools registry show <name> for details; mcptools add <name> to install.`);
}

/** What `registry show` tells of one input. */
function describeInput(slot: InputSlot): string {
  const flags = [slot.required ? 'required' : 'optional', slot.secret ? 'secret' : undefined, slot.format]
    .filter(Boolean)
    .join(', ');
  return `${slot.kind} ${slot.key} (${flags})${slot.default !== undefined ? ` default ${slot.default}` : ''}${slot.description ? `: ${slot.description}` : ''}`;
}

/** Runs `mcptools registry show <name>[@version]`. */
export async function registryShowAction(spec: string, _options: unknown, command: Command): Promise<void> {
  const sources = configuredSources(catalogConfigFile(command));
  const { name, version } = parseServerSpec(spec);
  const { entry, source } = await findCatalogEntry(sources, name, version ?? 'latest', lookupOptions());
  const versions = (await catalogVersions([source], name, lookupOptions()))?.entries ?? [entry];
  const targets = installTargets(entry.server);
  if (globalOptions(command).json) {
    printJson({
      name: entry.server.name,
      version: entry.server.version,
      description: entry.server.description,
      status: catalogStatus(entry),
      statusMessage: catalogStatusMessage(entry),
      registry: source.url,
      versions: versions.map((item: CatalogEntry) => ({
        version: item.server.version,
        status: catalogStatus(item),
      })),
      packages: entry.server.packages ?? [],
      remotes: entry.server.remotes ?? [],
      inputs: targets.map((target) => ({ target: describeTarget(target), inputs: inputsOf(target) })),
    });
    return;
  }
  const status = catalogStatus(entry);
  const message = catalogStatusMessage(entry);
  printLine(
    `${entry.server.name} ${entry.server.version}${entry.server.title ? ` (${entry.server.title})` : ''}`,
  );
  printLine(entry.server.description);
  printLine(`Status: ${status}${message ? ` (${message})` : ''}`);
  printLine(`Registry: ${source.url}`);
  printLine(
    `Versions: ${versions.map((item) => `${item.server.version}${catalogStatus(item) === 'active' ? '' : ` (${catalogStatus(item)})`}`).join(', ')}`,
  );
  if (targets.length === 0) printLine('Packages and remotes: none mcptools installs');
  for (const target of targets) {
    const runtime = targetRuntime(target);
    printLine(`\n${describeTarget(target)}${runtime ? ` (runs with ${runtime})` : ''}`);
    const inputs = inputsOf(target);
    if (inputs.length === 0) printLine('  needs nothing');
    for (const slot of inputs) printLine(`  ${describeInput(slot)}`);
  }
}
