import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { onceUnderLock } from '../paths/once-under-lock.js';
import type { LockedPackage } from './catalog-lock.js';
import { LOCKED_PROJECT_NAME, lastLines } from './npm-lock-tree.js';
import { runNpm } from './run-npm.js';

type NpmPackage = Extract<LockedPackage, { registryType: 'npm' }>;

/** The marker file that says a prefix holds exactly the tree of its name. */
const MARKER = '.mcptools-installed';

/** An installed npm server: its prefix (the folder a box shows read-only) and its executable. */
export interface InstalledNpm {
  prefix: string;
  bin: string;
}

/**
 * Installs a locked npm server into its own prefix under `<packagesDir>/npm/<hash of the tree>`
 * and returns the path of its executable. The prefix is installed with `npm ci` from a
 * `package-lock.json` generated from the lock, so npm fetches exactly the locked tarballs and
 * checks each one against its integrity; install scripts do not run. A tarball whose hash differs
 * stops it with an error naming the locked hash and the one served, never a silent upgrade. An
 * installed prefix (its marker written last) is reused; a changed lock names another prefix.
 */
export async function installLockedNpm(
  pkg: NpmPackage,
  packagesDir: string,
  serverName: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return (await installNpmTree(pkg, packagesDir, serverName, env)).bin;
}

/** Options of {@link installNpmTree}. */
export interface NpmInstallOptions {
  /** The executable to return, by its name in the package's `bin`. */
  binName?: string;
  /** Called (with the prefix) when this call installs, under the lock: never for a reused prefix. */
  onInstall?: (prefix: string) => void;
}

/**
 * {@link installLockedNpm} with the prefix returned too, and `options.binName` (npx's `--package`
 * form names the executable) over the default choice: the one installer of the catalog's locked start
 * and of the package runner of boxed `npx` entries.
 */
export async function installNpmTree(
  pkg: NpmPackage,
  packagesDir: string,
  serverName: string,
  env: NodeJS.ProcessEnv = process.env,
  options: NpmInstallOptions = {},
): Promise<InstalledNpm> {
  const tree = JSON.stringify({
    identifier: pkg.identifier,
    version: pkg.version,
    integrity: pkg.integrity,
    modules: pkg.modules,
  });
  const hash = createHash('sha256').update(tree).digest('hex').slice(0, 32);
  const prefix = join(packagesDir, 'npm', hash);
  const marker = join(prefix, MARKER);
  const installed = async () =>
    (existsSync(marker) && (await readFile(marker, 'utf8')) === hash) || undefined;
  await onceUnderLock(prefix, installed, async () => {
    await mkdir(prefix, { recursive: true, mode: 0o700 });
    options.onInstall?.(prefix);
    await install(pkg, prefix, serverName, env, hash);
    return true;
  });
  return { prefix, bin: await binOf(pkg, prefix, serverName, options.binName) };
}

async function install(
  pkg: NpmPackage,
  prefix: string,
  serverName: string,
  env: NodeJS.ProcessEnv,
  hash: string,
): Promise<void> {
  await rm(join(prefix, 'node_modules'), { recursive: true, force: true });
  await rm(join(prefix, MARKER), { force: true });
  const dependencies = { [pkg.identifier]: pkg.version };
  await writeFile(
    join(prefix, 'package.json'),
    JSON.stringify({ name: LOCKED_PROJECT_NAME, private: true, dependencies }, null, 2),
  );
  await writeFile(
    join(prefix, 'package-lock.json'),
    JSON.stringify(
      {
        name: LOCKED_PROJECT_NAME,
        lockfileVersion: 3,
        requires: true,
        packages: { '': { name: LOCKED_PROJECT_NAME, dependencies }, ...pkg.modules },
      },
      null,
      2,
    ),
  );
  const args = ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'];
  // A lock written where npm omits tarball URLs still installs from the record's registry.
  if (pkg.registryBaseUrl !== undefined) args.push(`--registry=${pkg.registryBaseUrl}`);
  const run = await runNpm(args, prefix, env);
  if (!run.ok) {
    const mismatch = /wanted (sha\d+-[A-Za-z0-9+/=]+) but got (sha\d+-[A-Za-z0-9+/=]+)/.exec(run.stderr);
    if (mismatch || /EINTEGRITY/.test(run.stderr))
      throw new McpToolsError(
        'PERMISSION_DENIED',
        `server "${serverName}": mcptools-lock.json locks ${pkg.identifier}@${pkg.version} with integrity ${mismatch?.[1] ?? pkg.integrity}, but the tarball served has ${mismatch?.[2] ?? 'another hash'}; not started (mcptools update ${serverName} moves the lock on purpose)`,
        { recoverable: false, data: { locked: mismatch?.[1] ?? pkg.integrity, served: mismatch?.[2] } },
      );
    throw new McpToolsError(
      'CONNECTION_FAILED',
      `server "${serverName}": npm could not install the locked ${pkg.identifier}@${pkg.version}: ${lastLines(run.stderr)}`,
    );
  }
  const installed = JSON.parse(
    await readFile(join(prefix, 'node_modules', pkg.identifier, 'package.json'), 'utf8'),
  ) as { name?: string; version?: string };
  // npm's cache is keyed by content: a lock naming another package's hash installs that package.
  if (installed.name !== pkg.identifier || installed.version !== pkg.version)
    throw new McpToolsError(
      'PERMISSION_DENIED',
      `server "${serverName}": mcptools-lock.json locks ${pkg.identifier}@${pkg.version}, but npm installed ${installed.name}@${installed.version}; not started`,
      { recoverable: false },
    );
  await writeFile(join(prefix, MARKER), hash);
}

/**
 * The executable the package declares (`bin`): the one named `binName` when given, else the only
 * one, or the one named like the package.
 */
async function binOf(pkg: NpmPackage, prefix: string, serverName: string, binName?: string): Promise<string> {
  const dir = join(prefix, 'node_modules', pkg.identifier);
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = manifest.bin;
  const unscoped = pkg.identifier.split('/').at(-1)!;
  // A string `bin` is one executable named like the package (as npm links it).
  const entries = typeof bin === 'string' ? [[unscoped, bin] as const] : Object.entries(bin ?? {});
  const chosen =
    binName !== undefined
      ? entries.find(([name]) => name === binName)
      : entries.length === 1
        ? entries[0]
        : entries.find(([name]) => name === unscoped);
  if (chosen === undefined)
    throw new McpToolsError(
      'CONFIG_INVALID',
      `server "${serverName}": ${pkg.identifier}@${pkg.version} declares ${entries.length === 0 ? 'no executable' : binName !== undefined ? `no executable named "${binName}" (it has ${entries.map(([name]) => name).join(', ')})` : `several executables (${entries.map(([name]) => name).join(', ')})`}`,
    );
  return join(dir, chosen[1]);
}
