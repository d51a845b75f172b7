import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SecretVault } from '../auth/secret-vault.js';
import { vaultReference } from '../config/vault-reference.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { stateDir } from '../paths/state-dir.js';
import { type BuildContext, buildEntry } from './build-entry.js';
import {
  type LockEntry,
  type LockedPackage,
  lockFileFor,
  readCatalogLock,
  updateCatalogLock,
} from './catalog-lock.js';
import { type CatalogLookupOptions, type FoundEntry, findCatalogEntry } from './catalog-lookup.js';
import type { CatalogSource } from './catalog-source.js';
import { checkCatalogStatus } from './catalog-status.js';
import { setConfigEntry } from './config-file-entries.js';
import { chooseTarget, type InstallTarget, targetRuntime, targetType } from './install-target.js';
import { packagesDir } from './locked-start.js';
import { type BundleCommand, bundleFile, downloadBundle, unpackBundle } from './mcpb-bundle.js';
import { resolveNpmTree } from './npm-lock-tree.js';
import { installLockedNpm } from './npm-locked-install.js';
import { resolveOciDigest } from './oci-digest.js';
import { bundleInputs, type InputSlot, inputsOf } from './server-inputs.js';

/** What {@link planAdd} found and decided, before anything is written. */
export interface AddPlan {
  /** The entry's name in the configuration. */
  entry: string;
  found: FoundEntry;
  target: InstallTarget;
  /** Whether this machine has the target's runtime. */
  runnable: boolean;
  /** The runtime it needs (`undefined` for a remote). */
  runtime?: string;
  /** Every input of the target (an MCPB bundle's `user_config` too). */
  inputs: InputSlot[];
  /** An MCPB target's bundle, downloaded, verified and unpacked to read its `user_config`. */
  bundle?: BundleCommand;
  /** The registry's deprecation notice, if any. */
  warning?: string;
}

/** Options of {@link planAdd}. */
export interface PlanAddOptions extends CatalogLookupOptions {
  /** `name` or `name@version` as the user wrote it. */
  spec: string;
  sources: readonly CatalogSource[];
  /** The entry name; default: derived from the server name. */
  as?: string;
  /** Only a target of this type (`npm`, `pypi`, `oci`, `nuget`, `mcpb`, `remote`). */
  use?: string;
  /** Whether this machine has a runtime (`npx`, `uvx`, `docker`, `dnx`, `node`). */
  canRun: (runtime: string) => boolean;
  /** The environment (the state folder an MCPB bundle is kept in). */
  env?: NodeJS.ProcessEnv;
}

/** Splits `name@version` (a server name holds no `@`). */
export function parseServerSpec(spec: string): { name: string; version?: string } {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return { name: spec };
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/** The entry name a server gets by default: the last part of its name, without a `server-` or `mcp-` prefix. */
export function defaultEntryName(serverName: string): string {
  const last = serverName.split('/').at(-1)!;
  const trimmed = last.replace(/^(mcp-server-|server-|mcp-)/, '').replace(/(-mcp-server|-mcp|-server)$/, '');
  return (trimmed || last).replace(/[^A-Za-z0-9_-]/g, '-');
}

/**
 * Looks a server up (`name[@version]`, `latest` resolved to the version it is now), refuses a
 * deleted one, notes a deprecated one, and picks the target to install and the inputs it needs.
 * Nothing is written (an MCPB bundle is fetched and verified, to read what it asks): this is
 * what `mcptools add` shows, and what a router tool can show an approver.
 */
export async function planAdd(options: PlanAddOptions): Promise<AddPlan> {
  const { name, version } = parseServerSpec(options.spec);
  const found = await findCatalogEntry(options.sources, name, version ?? 'latest', options);
  const warning = checkCatalogStatus(found.entry);
  const chosen = chooseTarget(found.entry.server, options.canRun, options.use);
  if (chosen === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `${name}@${found.entry.server.version} has ${options.use ? `no ${options.use} package or remote` : 'no stdio package of a type mcptools installs (npm, pypi, oci, nuget, mcpb) and no remote'}`,
      { recoverable: false },
    );
  const inputs = inputsOf(chosen.target);
  let bundle: BundleCommand | undefined;
  if (chosen.target.kind === 'package' && chosen.target.pkg.registryType === 'mcpb') {
    // What the bundle asks the person is in its manifest: fetched and verified by its hash now
    // (kept in the state folder by that hash), never unpacked or read unverified.
    bundle = await fetchBundle(found.entry.server.name, chosen.target.pkg, options.env ?? process.env);
    for (const slot of bundleInputs(bundle.userConfig))
      if (!inputs.some((known) => known.key === slot.key)) inputs.push(slot);
  }
  return {
    entry: options.as ?? defaultEntryName(name),
    found,
    target: chosen.target,
    runnable: chosen.runnable,
    ...(targetRuntime(chosen.target) ? { runtime: targetRuntime(chosen.target) } : {}),
    inputs,
    ...(bundle ? { bundle } : {}),
    ...(warning ? { warning } : {}),
  };
}

/** An MCPB package's bundle: downloaded unless kept, its hash checked, unpacked. */
async function fetchBundle(
  serverName: string,
  pkg: { identifier: string; fileSha256?: string },
  env: NodeJS.ProcessEnv,
): Promise<BundleCommand> {
  if (pkg.fileSha256 === undefined)
    throw new McpToolsError(
      'CONFIG_INVALID',
      `${serverName}: its MCPB package has no fileSha256; not installed`,
    );
  const bundles = join(packagesDir(env), 'mcpb');
  if (!existsSync(bundleFile(bundles, pkg.fileSha256)))
    await downloadBundle(pkg.identifier, pkg.fileSha256, bundles);
  return unpackBundle(pkg.fileSha256, bundles);
}

/** Options of {@link applyAdd}. */
export interface ApplyAddOptions {
  /** The `mcptools.json` to write; the lock goes beside it. */
  configFile: string;
  /** The input values by key; secrets among them go to the vault only. */
  values: Readonly<Record<string, string>>;
  /** The environment (state folder, vault key, npm's settings). */
  env?: NodeJS.ProcessEnv;
  /**
   * A required input without a value does not refuse the add: the entry is written disabled
   * (`"enabled": false`) without it, and waits until a person provides it ("needs
   * configuration"). An agent's `add_server` adds this way; the CLI asks or refuses instead.
   */
  waitForInputs?: boolean;
}

/** What {@link applyAdd} wrote. */
export interface AddResult {
  entry: string;
  server: Record<string, unknown>;
  lock: LockEntry;
  lockFile: string;
  /** The names of the secrets stored in the vault. */
  secrets: string[];
  /** The entry existed and was replaced. */
  replaced: boolean;
  /** The required inputs it still waits for (only with `waitForInputs`; the entry is disabled). */
  missing: InputSlot[];
}

/** The required inputs of `plan` that `values` and the defaults leave without a value. */
export function missingInputs(plan: AddPlan, values: Readonly<Record<string, string>>): InputSlot[] {
  return plan.inputs.filter(
    (slot) => slot.required && values[slot.key] === undefined && slot.default === undefined,
  );
}

/**
 * Installs what `plan` chose and writes it: npm's tree resolved and installed into its locked
 * prefix, an MCPB bundle downloaded and its `fileSha256` verified before anything of it runs, an
 * OCI image only by digest; then the secrets into the vault (an entry's older secrets removed),
 * the entry into `configFile` and its lock into `mcptools-lock.json` beside it. A required input
 * without a value is refused, naming each.
 */
export async function applyAdd(plan: AddPlan, options: ApplyAddOptions): Promise<AddResult> {
  const env = options.env ?? process.env;
  const missing = missingInputs(plan, options.values);
  if (missing.length > 0 && options.waitForInputs !== true)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `${plan.found.entry.server.name} needs ${missing.map((slot) => `${slot.key} (${flagOf(slot)})`).join(', ')}`,
      { recoverable: false, data: { missing: missing.map((slot) => slot.key) } },
    );
  const { server: record } = plan.found.entry;
  const context: BuildContext = {};
  let locked: LockedPackage;
  const { target } = plan;
  if (target.kind === 'remote') {
    locked = { registryType: 'remote', transport: target.remote.type, url: target.remote.url };
  } else {
    const { pkg } = target;
    switch (pkg.registryType) {
      case 'npm': {
        if (pkg.version === undefined) throw noVersion(record.name, pkg.identifier);
        const tree = await resolveNpmTree(pkg.identifier, pkg.version, pkg.registryBaseUrl, env);
        locked = {
          registryType: 'npm',
          identifier: pkg.identifier,
          version: pkg.version,
          ...(pkg.registryBaseUrl ? { registryBaseUrl: pkg.registryBaseUrl } : {}),
          integrity: tree.integrity,
          modules: tree.modules,
        };
        // Installed now, so the first start does not wait for npm, and a bad lock shows here.
        if (plan.runnable) await installLockedNpm(locked, packagesDir(env), plan.entry, env);
        break;
      }
      case 'mcpb': {
        if (pkg.fileSha256 === undefined)
          throw new McpToolsError(
            'CONFIG_INVALID',
            `${record.name}: its MCPB package has no fileSha256; not installed`,
          );
        const bundles = join(packagesDir(env), 'mcpb');
        if (plan.bundle === undefined) await downloadBundle(pkg.identifier, pkg.fileSha256, bundles);
        context.bundle = plan.bundle ?? (await unpackBundle(pkg.fileSha256, bundles));
        locked = {
          registryType: 'mcpb',
          identifier: pkg.identifier,
          fileSha256: pkg.fileSha256,
          integrity: `sha256-${Buffer.from(pkg.fileSha256, 'hex').toString('base64')}`,
        };
        break;
      }
      case 'oci': {
        // An image runs only by digest: a record's digest as it is, a tag resolved now, once.
        const named = /@(sha256:[a-f0-9]{64})$/.exec(pkg.identifier)?.[1];
        const digest = named ?? (await resolveOciDigest(pkg.identifier));
        context.image = named ? pkg.identifier : `${pkg.identifier}@${digest}`;
        locked = { registryType: 'oci', identifier: pkg.identifier, digest, integrity: digest };
        break;
      }
      case 'pypi':
      case 'nuget':
        if (pkg.version === undefined) throw noVersion(record.name, pkg.identifier);
        locked = {
          registryType: pkg.registryType,
          identifier: pkg.identifier,
          version: pkg.version,
          ...(pkg.registryBaseUrl ? { registryBaseUrl: pkg.registryBaseUrl } : {}),
        };
        break;
      default:
        throw new McpToolsError(
          'INVALID_ARGUMENTS',
          `${record.name}: ${pkg.registryType} packages are not installed`,
        );
    }
  }
  const built = buildEntry(plan.entry, target, options.values, context);
  const vault = SecretVault.fromEnv(env);
  // Secrets kept by reference (an update reuses them) stay; those the entry no longer uses go.
  const referenced = Object.entries(built.inputs)
    .filter(([, value]) => value === vaultReference(plan.entry, value.slice(value.indexOf('/') + 1, -1)))
    .map(([, value]) => value.slice(value.indexOf('/') + 1, -1));
  await vault.retain(plan.entry, referenced);
  if (Object.keys(built.secrets).length > 0) await vault.set(plan.entry, built.secrets);
  // Waits for what the person must provide rather than failing to start.
  const server = missing.length > 0 ? { ...built.server, enabled: false } : built.server;
  const replaced = await setConfigEntry(options.configFile, plan.entry, server);
  const lock: LockEntry = {
    registry: plan.found.source.url,
    name: record.name,
    version: record.version,
    package: locked,
    inputs: built.inputs,
    lockedAt: new Date().toISOString(),
  };
  const lockFile = lockFileFor(options.configFile);
  await updateCatalogLock(lockFile, (content) => {
    content.servers[plan.entry] = lock;
  });
  return {
    entry: plan.entry,
    server,
    lock,
    lockFile,
    secrets: Object.keys(built.secrets),
    replaced,
    missing,
  };
}

/** The flag that gives a value for `slot` on the command line. */
export function flagOf(slot: InputSlot): string {
  switch (slot.kind) {
    case 'env':
      return `--env ${slot.key}=…`;
    case 'header':
      return `--header ${slot.key}=…`;
    default:
      return `--arg ${slot.key}=…`;
  }
}

function noVersion(name: string, identifier: string): McpToolsError {
  return new McpToolsError(
    'CONFIG_INVALID',
    `${name}: its package ${identifier} has no version; not installed`,
  );
}

/** The entries of a lock file beside `configFile`, for `update` and `doctor`. */
export function lockedEntries(configFile: string): Record<string, LockEntry> {
  return readCatalogLock(lockFileFor(configFile)).servers;
}

/** What a target is, in one line: `npm @scope/name@1.2.3`, `remote https://…`. */
export function describeTarget(target: InstallTarget): string {
  if (target.kind === 'remote') return `remote ${target.remote.type} ${target.remote.url}`;
  const { pkg } = target;
  return `${targetType(target)} ${pkg.identifier}${pkg.version ? `@${pkg.version}` : ''}`;
}

/** The state folder's place for catalog answers. */
export function catalogCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'catalog-cache');
}
