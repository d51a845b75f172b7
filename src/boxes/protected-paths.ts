import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { defaultVaultPath } from '../paths/default-vault-path.js';
import { configSearchPaths } from '../config/config-search-paths.js';
import { stateDir } from '../paths/state-dir.js';

/** A path a box never mounts, and what it is (named in the refusal). */
export interface ProtectedPath {
  path: string;
  what: string;
  /**
   * `inside`: nothing in it is mounted either (the state folder, the OAuth vault's folder);
   * `whole`: only it and the folders above it are refused (the home: a folder in it is fine).
   */
  scope: 'inside' | 'whole';
}

/** The folder under the state folder that boxes may mount: the built-in configuration's workspace. */
export const WORKSPACE_FOLDER_NAME = 'workspace';
/** The workspace folder's name before it was renamed; still mountable while it exists. */
export const LEGACY_WORKSPACE_FOLDER_NAME = 'sandbox';

/**
 * The paths a box never mounts, even when an entry's `args` name them: the gateway's state
 * folder (its secret vault, package and catalog caches; only its workspace folder is mountable),
 * the OAuth vault's folder, the configuration file `configFile` and the ones discovery reads
 * from `cwd` and the home, the user's home as a whole, and the temp folder as a whole (it holds
 * the egress sockets of the other boxes). A box's user maps to the gateway's own user outside
 * it, so whatever is mounted can be read with the gateway's rights.
 */
export function protectedPaths(
  env: NodeJS.ProcessEnv = process.env,
  configFile?: string,
  cwd: string = process.cwd(),
): ProtectedPath[] {
  const home = env.HOME || homedir();
  const paths: ProtectedPath[] = [
    {
      path: stateDir(env),
      what: "the gateway's state folder (its secret vault and caches)",
      scope: 'inside',
    },
    { path: dirname(defaultVaultPath(env)), what: "the OAuth token vault's folder", scope: 'inside' },
    { path: home, what: "the user's home folder as a whole", scope: 'whole' },
    { path: tmpdir(), what: 'the temp folder as a whole', scope: 'whole' },
  ];
  if (configFile !== undefined && isAbsolute(configFile))
    paths.push({ path: configFile, what: "the gateway's configuration file", scope: 'inside' });
  for (const file of configSearchPaths({ cwd, homeDir: home, env }))
    if (file !== configFile && existsSync(file))
      paths.push({ path: file, what: 'a configuration file', scope: 'inside' });
  return paths;
}

/**
 * The protected path `path` would expose when mounted (it is that path, a folder above it, or,
 * for an `inside` one, in it), or `undefined`. The state folder's workspace folder is allowed.
 */
export function exposedProtectedPath(
  path: string,
  protectedList: readonly ProtectedPath[],
  env: NodeJS.ProcessEnv = process.env,
): ProtectedPath | undefined {
  const state = stateDir(env);
  for (const name of [WORKSPACE_FOLDER_NAME, LEGACY_WORKSPACE_FOLDER_NAME])
    if (isWithin(path, resolve(state, name))) return undefined;
  // The path itself first: `/home/me` is named as the home, not as the folder above the state folder.
  return (
    protectedList.find((entry) => entry.path === path) ??
    protectedList.find(
      (entry) => isWithin(entry.path, path) || (entry.scope === 'inside' && isWithin(path, entry.path)),
    )
  );
}

/** `true` when `path` is `folder` or inside it (by their names, both absolute). */
export function isWithin(path: string, folder: string): boolean {
  const inside = relative(folder, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}
