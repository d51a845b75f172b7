import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LockedStart } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { onceUnderLock } from '../paths/once-under-lock.js';
import { writeFileAtomically } from '../paths/write-file-atomically.js';
import type { LockedPackage } from './catalog-lock.js';
import { lockedCommand, type PackageCommand, packagesDir, type StdioCommand } from './locked-start.js';
import { lastLines, resolveNpmTree } from './npm-lock-tree.js';
import { installNpmTree } from './npm-locked-install.js';
import { runNpm } from './run-npm.js';
import { isExactVersion, parseRunnerCommand, type RunnerCommand } from './runner-command.js';

type NpmPackage = Extract<LockedPackage, { registryType: 'npm' }>;

/** How long a tag or a range (`latest`, `^1`) stays resolved to the version it was installed at. */
const RANGE_TTL_MS = 24 * 60 * 60_000;

/** Options of {@link packageCommand}. */
export interface PackageRunOptions {
  /** The server runs in a box: an `npx`, `npm exec`, `pnpm dlx` or `bunx` package is installed outside it and run inside. */
  boxed: boolean;
  env?: NodeJS.ProcessEnv;
  /** Told when a package is being installed (once per installed folder, not at each start). */
  log?: (message: string) => void;
}

/**
 * The one package runner every stdio start goes through. A locked entry runs what the catalog's
 * locked start returns (locked-start.ts). An unlocked boxed `npx`, `npm exec`, `pnpm dlx` or
 * `bunx` entry (runner-command.ts) is installed outside the box with npm (never pnpm or Bun), as the user's npm is configured (its registry, its cache, no install scripts),
 * into the same content-addressed prefix a lock would name (`<state>/packages/npm/<hash of the
 * resolved tree>`), and its executable run with this Node: the box shows that folder read-only
 * (`packageDir`) and needs no network. A spec's resolution is kept beside the prefixes: an
 * exact version is resolved once, a tag or range once a day (an unreachable registry keeps the
 * last one). Concurrent starts, in this process or others, resolve and install once (a lock
 * file per spec, another per prefix). Anything else runs as configured.
 */
export async function packageCommand(
  command: StdioCommand,
  locked: LockedStart | undefined,
  serverName: string,
  options: PackageRunOptions,
): Promise<PackageCommand> {
  const env = options.env ?? process.env;
  if (locked !== undefined) return lockedCommand(locked, command, serverName, env);
  if (!options.boxed) return command;
  const spec = parseRunnerCommand(command.command, command.args);
  if (spec === undefined) return command;
  if (typeof spec === 'string')
    throw new McpToolsError(
      'CONFIG_INVALID',
      `server "${serverName}" is boxed and runs a package through a package runner, but ${spec}: run the installed package with node, or set "sandbox": false on this server`,
      { recoverable: false },
    );
  const pkg = await resolvedPackage(spec, serverName, env, options.log);
  const { prefix, bin } = await installNpmTree(pkg, packagesDir(env), serverName, env, {
    ...(spec.bin === undefined ? {} : { binName: spec.bin }),
    onInstall: (folder) =>
      options.log?.(
        `server "${serverName}": installing ${pkg.identifier}@${pkg.version} outside its box into ${folder}`,
      ),
  });
  return { command: process.execPath, args: [bin, ...spec.args], packageDir: prefix };
}

/** `<state>/packages/npx/<hash of the spec>.json`: what a spec resolved to, as a lock records it. */
function resolutionFile(spec: RunnerCommand, env: NodeJS.ProcessEnv): string {
  const key = createHash('sha256').update(`${spec.name}@${spec.range}`).digest('hex').slice(0, 32);
  return join(packagesDir(env), 'npx', `${key}.json`);
}

/** The kept resolution, when it is there and still current (`stale` ignores the age). */
function keptResolution(file: string, spec: RunnerCommand, stale = false): NpmPackage | undefined {
  try {
    if (!stale && !isExactVersion(spec.range) && Date.now() - statSync(file).mtimeMs > RANGE_TTL_MS)
      return undefined;
    const kept = JSON.parse(readFileSync(file, 'utf8')) as NpmPackage;
    return kept.registryType === 'npm' && kept.identifier === spec.name ? kept : undefined;
  } catch {
    return undefined;
  }
}

async function resolvedPackage(
  spec: RunnerCommand,
  serverName: string,
  env: NodeJS.ProcessEnv,
  log: ((message: string) => void) | undefined,
): Promise<NpmPackage> {
  const file = resolutionFile(spec, env);
  return onceUnderLock(
    file,
    () => keptResolution(file, spec),
    async () => {
      let pkg: NpmPackage;
      try {
        const version = isExactVersion(spec.range) ? spec.range : await resolveVersion(spec, env);
        const tree = await resolveNpmTree(spec.name, version, undefined, env);
        pkg = {
          registryType: 'npm',
          identifier: spec.name,
          version,
          integrity: tree.integrity,
          modules: tree.modules,
        };
      } catch (error) {
        const stale = keptResolution(file, spec, true);
        if (stale === undefined) throw withServer(error, serverName);
        log?.(
          `server "${serverName}": npm could not resolve ${spec.name}@${spec.range} again (${(error as Error).message}); running ${stale.version}, installed before`,
        );
        return stale;
      }
      await writeFileAtomically(file, `${JSON.stringify(pkg)}\n`, 0o600);
      return pkg;
    },
  );
}

/** The exact version npm picks for a tag or range (the highest one it lists). */
async function resolveVersion(spec: RunnerCommand, env: NodeJS.ProcessEnv): Promise<string> {
  const run = await runNpm(['view', `${spec.name}@${spec.range}`, 'version', '--json'], tmpdir(), env);
  if (!run.ok)
    throw new McpToolsError(
      'UPSTREAM_ERROR',
      `npm could not resolve ${spec.name}@${spec.range}: ${lastLines(run.stderr)}`,
      { recoverable: false },
    );
  let versions: unknown;
  try {
    versions = run.stdout.trim() === '' ? [] : JSON.parse(run.stdout);
  } catch {
    versions = [];
  }
  const list = (Array.isArray(versions) ? versions : [versions]).filter(
    (version): version is string => typeof version === 'string',
  );
  const version = list.at(-1);
  if (version === undefined)
    throw new McpToolsError('UPSTREAM_ERROR', `npm has no version of ${spec.name} matching "${spec.range}"`, {
      recoverable: false,
    });
  return version;
}

/** `error` with the server's name in front, for the status and the log. */
function withServer(error: unknown, serverName: string): McpToolsError {
  return new McpToolsError('UPSTREAM_ERROR', `server "${serverName}": ${(error as Error).message}`, {
    recoverable: false,
  });
}

/** Where the system's programs live: a box shows them already. */
const SYSTEM_PREFIXES = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'];

/**
 * The folders a box must show read-only for `run` to start: the installed package, and the
 * installation of this Node when it runs the package from outside the system's folders (nvm,
 * a Node unpacked in `/opt`).
 */
export function runtimeFolders(run: PackageCommand): string[] {
  const folders = run.packageDir === undefined ? [] : [run.packageDir];
  if (run.command === process.execPath && !SYSTEM_PREFIXES.some((prefix) => run.command.startsWith(prefix)))
    folders.push(dirname(dirname(run.command)));
  return folders;
}
