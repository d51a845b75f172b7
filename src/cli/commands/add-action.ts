import type { Command } from 'commander';
import {
  type AddPlan,
  type AddResult,
  applyAdd,
  describeTarget,
  lockedEntries,
  missingInputs,
  planAdd,
} from '../../catalog/add-server.js';
import type { LockEntry } from '../../catalog/catalog-lock.js';
import { configuredSources } from '../../catalog/configured-sources.js';
import { missingRuntime } from '../../catalog/package-runtime.js';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { findOnPath } from '../../paths/find-on-path.js';
import { printJson, printLine } from '../print.js';
import { warnOnStderr } from '../warn-on-stderr.js';
import { askInput, canAsk, confirm } from './ask-input.js';
import { globalOptions } from './global-options.js';
import { catalogConfigFile, lookupOptions } from './registry-action.js';

/** Options of `mcptools add`. */
interface AddOptions {
  as?: string;
  use?: string;
  env?: string[];
  header?: string[];
  arg?: string[];
  yes?: boolean;
}

/** `KEY=VALUE` flags as a map; `KEY` alone takes the variable of that name from the environment. */
function flagValues(options: AddOptions): Record<string, string> {
  const values: Record<string, string> = {};
  for (const item of [...(options.arg ?? []), ...(options.env ?? []), ...(options.header ?? [])]) {
    const equals = item.indexOf('=');
    const key = equals < 0 ? item : item.slice(0, equals);
    const value = equals < 0 ? process.env[key] : item.slice(equals + 1);
    if (key === '' || value === undefined)
      throw new McpToolsError(
        'INVALID_ARGUMENTS',
        `${JSON.stringify(key)} has no value (write KEY=VALUE, or set ${key} in the environment)`,
      );
    values[key] = value;
  }
  return values;
}

const canRun = (runtime: string) => findOnPath(runtime) !== undefined;

/** Prints what a plan will install and needs. */
function showPlan(plan: AddPlan): void {
  const { server } = plan.found.entry;
  process.stderr.write(
    `${server.name}@${server.version} from ${plan.found.source.url}\n  as "${plan.entry}": ${describeTarget(plan.target)}\n`,
  );
}

/** Warns of a deprecated record and of a runtime this machine lacks. */
function warnAbout(plan: AddPlan): void {
  if (plan.warning) warnOnStderr(plan.warning);
  if (!plan.runnable && plan.runtime)
    warnOnStderr(
      `${plan.runtime} is not installed here (${describeTarget(plan.target)} runs with it): the entry is written and starts once ${plan.runtime} is on PATH; ${missingRuntime(plan.runtime) ?? ''}`,
    );
}

/** Asks, on a terminal, for every required value still missing. */
async function askMissing(
  plan: AddPlan,
  values: Record<string, string>,
  yes: boolean | undefined,
): Promise<void> {
  if (yes || !canAsk()) return;
  for (const slot of missingInputs(plan, values)) {
    const answer = await askInput(slot);
    if (answer !== undefined) values[slot.key] = answer;
  }
}

/** Prints what an add wrote (names of secrets only). */
function report(result: AddResult, configFile: string, json: boolean | undefined): void {
  if (json) {
    printJson({
      entry: result.entry,
      configFile,
      lockFile: result.lockFile,
      server: result.server,
      lock: result.lock,
      secretsInVault: result.secrets,
    });
    return;
  }
  const { lock } = result;
  printLine(
    `${result.replaced ? 'Updated' : 'Added'} ${result.entry}: ${lock.name}@${lock.version} (${lock.package.registryType}) in ${configFile}`,
  );
  if ('integrity' in lock.package)
    printLine(`Locked in ${result.lockFile}: integrity ${lock.package.integrity}`);
  else printLine(`Locked in ${result.lockFile}: version ${lock.version}`);
  if (result.secrets.length > 0)
    printLine(
      `Secrets kept in the vault, not in any file here: ${result.secrets.map((name) => `\${vault:${result.entry}/${name}}`).join(', ')}`,
    );
}

/**
 * An add over an entry locked for the same server keeps the values it was added with (plain
 * ones, and vault references for secrets) unless given again: configuring the one value an
 * agent's add left missing does not lose the others.
 */
function keepLockedValues(plan: AddPlan, values: Record<string, string>, configFile: string): void {
  const locked = lockedEntries(configFile)[plan.entry];
  if (locked?.name !== plan.found.entry.server.name) return;
  for (const slot of plan.inputs) {
    const kept = locked.inputs[slot.key];
    if (values[slot.key] === undefined && kept !== undefined) values[slot.key] = kept;
  }
}

/** Runs `mcptools add <name>[@version]`. */
export async function addAction(spec: string, options: AddOptions, command: Command): Promise<void> {
  const configFile = catalogConfigFile(command);
  const sources = configuredSources(configFile);
  const values = flagValues(options);
  const plan = await planAdd({ spec, sources, as: options.as, use: options.use, canRun, ...lookupOptions() });
  keepLockedValues(plan, values, configFile);
  warnAbout(plan);
  showPlan(plan);
  await askMissing(plan, values, options.yes);
  if (!options.yes && canAsk() && !(await confirm(`Add ${plan.entry}?`))) {
    process.stderr.write('Nothing changed.\n');
    return;
  }
  const result = await applyAdd(plan, { configFile, values });
  report(result, configFile, globalOptions(command).json);
}

/** One line of what moving a lock changes. */
function change(label: string, before: string, after: string): string {
  return before === after ? `  ${label}: ${before} (unchanged)` : `  ${label}: ${before} → ${after}`;
}

/** Runs `mcptools update [entry]`: each locked entry to its registry's latest version. */
export async function updateAction(
  only: string | undefined,
  options: { yes?: boolean; dryRun?: boolean },
  command: Command,
): Promise<void> {
  const configFile = catalogConfigFile(command);
  const locked = lockedEntries(configFile);
  const names = only === undefined ? Object.keys(locked) : [only];
  if (only !== undefined && locked[only] === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `${only} is not locked in the lock file beside ${configFile}`,
    );
  const configured = configuredSources(configFile);
  const results: {
    entry: string;
    from: string;
    to: string;
    changed: boolean;
    pins?: { changed: string[]; repinned: string[] };
  }[] = [];
  for (const entry of names) {
    const lock = locked[entry] as LockEntry;
    // The registry it came from, with the headers the configuration gives it.
    const source = configured.find((candidate) => candidate.url === lock.registry) ?? { url: lock.registry };
    const plan = await planAdd({
      spec: lock.name,
      sources: [source],
      as: entry,
      use: lock.package.registryType,
      canRun,
      ...lookupOptions(),
    });
    const next = plan.found.entry.server.version;
    if (next === lock.version) {
      results.push({ entry, from: lock.version, to: next, changed: false });
      if (!globalOptions(command).json) printLine(`${entry}: ${lock.name}@${lock.version} is the latest`);
      continue;
    }
    warnAbout(plan);
    const lines = [`${entry}: ${lock.name}`, change('version', lock.version, next)];
    lines.push(change('package', describeLocked(lock), describeTarget(plan.target)));
    if (!globalOptions(command).json) for (const line of lines) printLine(line);
    if (options.dryRun || (!options.yes && canAsk() && !(await confirm(`Move ${entry} to ${next}?`)))) {
      results.push({ entry, from: lock.version, to: next, changed: false });
      continue;
    }
    const values = { ...lock.inputs };
    const result = await applyAdd(plan, { configFile, values });
    const before = 'integrity' in lock.package ? lock.package.integrity : lock.version;
    const after = 'integrity' in result.lock.package ? result.lock.package.integrity : result.lock.version;
    const json = globalOptions(command).json === true;
    if (!json) printLine(change('integrity', before, after));
    // The new version's definitions against the pins, re-pinned only on a yes (`--yes`, or asked).
    const { repinUpdated } = await import('./update-pins.js');
    const pins = await repinUpdated(
      entry,
      configFile,
      async (count) =>
        options.yes === true ||
        (canAsk() && (await confirm(`Pin the ${count} changed definition(s) of ${entry}?`))),
      json,
    );
    if (!json && pins.changed.length > 0 && pins.repinned.length === 0)
      printLine(
        `  not re-pinned: they are quarantined until approved (mcptools pins diff ${entry}, then mcptools pins approve ${entry})`,
      );
    results.push({
      entry,
      from: lock.version,
      to: next,
      changed: true,
      ...(pins.file === undefined ? {} : { pins: { changed: pins.changed, repinned: pins.repinned } }),
    });
  }
  if (globalOptions(command).json) printJson({ updates: results });
}

function describeLocked(lock: LockEntry): string {
  const pkg = lock.package;
  if (pkg.registryType === 'remote') return `remote ${pkg.transport} ${pkg.url}`;
  return `${pkg.registryType} ${pkg.identifier}${'version' in pkg ? `@${pkg.version}` : ''}`;
}
