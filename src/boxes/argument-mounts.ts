import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { SandboxSettings } from '../config/sandbox-settings.js';
import type { StdioLaunch } from './bwrap-command.js';
import { exposedProtectedPath, isWithin, type ProtectedPath } from './protected-paths.js';

/** A path an entry's `args` or `env` name, and where: the field named in a refusal (`args[2]`, `env.DATA_DIR`). */
export interface NamedPath {
  path: string;
  field: string;
}

/** What a box mounts for the paths its entry's `args` and `env` name, on top of its `read` and `write`. */
export interface ArgumentMounts {
  /** Folders, bound read-write (the server was told to serve them). */
  write: string[];
  /** Files, and folders a `read` grant already covers, bound read-only. */
  read: string[];
}

/** Never mounted from an argument: the kernel's own views (a path there is not a folder to serve). */
const KERNEL_DIRS = ['/proc', '/sys', '/dev'];
/** System folders the box already shows read-only: a folder in them stays read-only. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

/**
 * The paths `launch.args` name: an absolute path, the value of `--flag=/path`, and with a `cwd` a
 * path relative to it written as `./x`, `../x`, `.` or `..` (a bare word is an argument, not a
 * path: `stdio`, a package name). Without a `cwd` a relative path means the box's home, which
 * holds nothing of the host. Then the values of `launch.env` that are absolute paths
 * (`MEMORY_FILE_PATH=/srv/memory.json`): a server reads its folders from its environment as
 * often as from its arguments, and the box shows the host's paths at the same place.
 */
export function namedPaths(launch: Pick<StdioLaunch, 'args' | 'cwd' | 'env'>): NamedPath[] {
  const found: NamedPath[] = [];
  launch.args.forEach((arg, index) => {
    const value = /^--?[A-Za-z0-9][\w.-]*=(.+)$/.exec(arg)?.[1] ?? arg;
    let path: string | undefined;
    if (isAbsolute(value)) path = resolve(value);
    else if (launch.cwd !== undefined && /^\.\.?(?:\/|$)/.test(value)) path = resolve(launch.cwd, value);
    if (path !== undefined) found.push({ path, field: `args[${index}]` });
  });
  for (const [name, value] of Object.entries(launch.env ?? {}))
    if (isAbsolute(value)) found.push({ path: resolve(value), field: `env.${name}` });
  return found;
}

/** The parts of a stdio entry whose paths a box mounts: its own `args`, `cwd` and `env`, as configured. */
export function entryLaunch(entry: {
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
}): Pick<StdioLaunch, 'args' | 'cwd' | 'env'> {
  return {
    args: entry.args ?? [],
    ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
    ...(entry.env === undefined ? {} : { env: entry.env }),
  };
}

/**
 * The mounts a box adds for the existing folders and files its entry's `args` and `env` name (see
 * {@link namedPaths}), so that a server told to serve `/srv/notes` can: a folder is bound
 * read-write, unless a `read` grant names it or a folder above it (then it stays read-only); a
 * file is bound read-only; a path a grant already covers, one that does not exist, and one in
 * `/proc`, `/sys` or `/dev` add nothing; a folder in the system's read-only folders stays
 * read-only. A path that would expose one of `protectedList` (the state folder, the vault, the
 * configuration, the home as a whole) throws, naming the server, the field and the path: a
 * box never mounts it, and the server is not started without the folder it was told to serve.
 */
export function argumentMounts(
  server: string,
  launch: Pick<StdioLaunch, 'args' | 'cwd' | 'env'>,
  grants: Pick<SandboxSettings, 'read' | 'write'>,
  protectedList: readonly ProtectedPath[],
  env: NodeJS.ProcessEnv = process.env,
  configFile?: string,
): ArgumentMounts {
  const mounts: ArgumentMounts = { write: [], read: [] };
  const readGrants = grants.read ?? [];
  const writeGrants = grants.write ?? [];
  for (const { path, field } of namedPaths(launch)) {
    if (KERNEL_DIRS.some((dir) => isWithin(path, dir))) continue;
    let kind: 'folder' | 'file';
    try {
      const stats = statSync(path);
      if (!stats.isDirectory() && !stats.isFile()) continue;
      kind = stats.isDirectory() ? 'folder' : 'file';
    } catch {
      continue;
    }
    const exposed = exposedProtectedPath(path, protectedList, env);
    if (exposed !== undefined) throw new Error(protectedMessage(server, field, path, exposed, configFile));
    if (writeGrants.some((grant) => isWithin(path, grant))) continue;
    const readOnly =
      kind === 'file' ||
      readGrants.some((grant) => isWithin(path, grant)) ||
      SYSTEM_DIRS.some((dir) => isWithin(path, dir));
    if (readOnly) {
      if (!readGrants.some((grant) => isWithin(path, grant)) && !mounts.read.includes(path))
        mounts.read.push(path);
    } else if (!mounts.write.includes(path)) mounts.write.push(path);
  }
  return mounts;
}

/** `grants` with the {@link ArgumentMounts} of `launch` added to its `read` and `write`. */
export function withArgumentMounts<T extends SandboxSettings>(
  server: string,
  launch: Pick<StdioLaunch, 'args' | 'cwd' | 'env'>,
  grants: T,
  protectedList: readonly ProtectedPath[],
  env: NodeJS.ProcessEnv = process.env,
  configFile?: string,
): T {
  const added = argumentMounts(server, launch, grants, protectedList, env, configFile);
  if (added.read.length === 0 && added.write.length === 0) return grants;
  return {
    ...grants,
    read: [...(grants.read ?? []), ...added.read],
    write: [...(grants.write ?? []), ...added.write],
  };
}

/** The refusal of a path that would expose a protected one: the server, the file, the field and the fix. */
export function protectedMessage(
  server: string,
  field: string,
  path: string,
  exposed: ProtectedPath,
  configFile?: string,
): string {
  const where = configFile === undefined ? '' : ` in ${configFile}`;
  const which =
    exposed.path === path ? `is ${exposed.what}` : `would expose ${exposed.what} (${exposed.path})`;
  return `server "${server}"${where}: ${field} "${path}" ${which}, which a box never mounts: name a folder that holds only what the server needs (docs/sandbox.md)`;
}
