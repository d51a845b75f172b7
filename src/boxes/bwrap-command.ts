import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { networkGrant, type SandboxSettings } from '../config/sandbox-settings.js';
import { type BoxEgress, egressBinds, egressEnvironment, relayCommand } from './box-egress.js';

/** What a stdio server runs: its command, arguments, environment and working directory. */
export interface StdioLaunch {
  command: string;
  args: string[];
  /** The entry's own environment (plus the gateway chain); all of it goes into the box. */
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * The bubblewrap command line that runs a {@link StdioLaunch} in a box, and the environment to
 * start bubblewrap with: exactly the box's, so that no value (an API key in the entry's `env`)
 * is ever on a command line, where any user of the host could read it.
 */
export interface BoxedLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The `PATH` inside a box: the system's directories only (what the box can see). */
export const BOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** The box's private home, on its private `/tmp`. */
export const BOX_HOME = '/tmp/home';
/** The unprivileged user and group a box runs as (`nobody`), in a user namespace of its own. */
const BOX_ID = '65534';

/** Top-level system directories: merged-/usr systems have them as symlinks, older ones as directories. */
const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** `/etc` files any program needs to start (dynamic linker, users, time zone, Debian's alternatives). */
const ETC_BASE = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/localtime',
];
/** `/etc` files a server with the whole network needs to resolve names. */
const ETC_RESOLVER = ['/etc/resolv.conf', '/etc/hosts', '/etc/host.conf', '/etc/gai.conf'];
/** CA certificates: for TLS, directly or through the egress proxy's tunnels. */
const ETC_CERTIFICATES = ['/etc/ssl', '/etc/ca-certificates', '/etc/pki'];

/**
 * The bubblewrap (`bwrap`) command line that runs `launch` with only what `grants` allow: every
 * namespace new (network shared only when granted, or reached through `egress`'s proxy and
 * an in-box relay for an allowlist, without a resolver), a PID namespace whose processes all end with
 * the box (`--die-with-parent`), no controlling terminal (`--new-session`), uid and gid 65534 with
 * no capabilities, a read-only root of the system directories, a private `/proc`, `/dev` and
 * `/tmp` (the home), the working directory read-only and the granted paths, and an environment
 * of `PATH`, `HOME`, the granted names from `hostEnv` and the entry's own `env`: `inherited`
 * names the variables the spawner adds on its own (the SDK's safe list), which the box unsets.
 * The gateway's files (its state folder, token vault, configuration, the operator's home) are
 * not there unless a grant names them.
 */
export function bwrapCommand(
  bwrap: string,
  launch: StdioLaunch,
  grants: SandboxSettings,
  inherited: readonly string[] = [],
  hostEnv: NodeJS.ProcessEnv = process.env,
  egress?: BoxEgress,
): BoxedLaunch {
  const network = networkGrant(grants.network);
  if (typeof network === 'object' && egress === undefined)
    throw new Error('a sandbox network allowlist needs the egress proxy');
  const args = ['--unshare-all', '--unshare-user'];
  if (network === 'all') args.push('--share-net');
  args.push('--die-with-parent', '--new-session', '--uid', BOX_ID, '--gid', BOX_ID, '--cap-drop', 'ALL');
  args.push('--ro-bind', '/usr', '/usr');
  for (const dir of SYSTEM_DIRS) {
    const link = symlinkTarget(dir);
    if (link !== undefined) args.push('--symlink', link, dir);
    else args.push('--ro-bind-try', dir, dir);
  }
  const etc =
    network === 'all'
      ? [...ETC_BASE, ...ETC_RESOLVER, ...ETC_CERTIFICATES]
      : network === 'none'
        ? ETC_BASE
        : [...ETC_BASE, ...ETC_CERTIFICATES];
  for (const path of etc) args.push('--ro-bind-try', path, path);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', BOX_HOME);
  // Granted paths after the private /tmp, so a grant under /tmp is bound over it, not hidden by it.
  const written = new Set(grants.write ?? []);
  // The working directory, read-only, unless a grant already shows it (a read-only bind over a
  // written folder would take the write away).
  const granted = [...(grants.read ?? []), ...written];
  if (launch.cwd !== undefined && !granted.some((path) => isWithin(launch.cwd!, path)))
    args.push('--ro-bind', requireAbsolute(launch.cwd, 'cwd'), launch.cwd);
  const binds: [flag: string, path: string][] = [];
  for (const path of grants.read ?? [])
    if (!written.has(path)) binds.push(['--ro-bind', requireAbsolute(path, 'read')]);
  for (const path of written) binds.push(['--bind', requireAbsolute(path, 'write')]);
  // A folder before the ones inside it: a later bind hides what an earlier one put under it, so a
  // read-only folder inside a written one stays read-only (the sort is stable: same depth, same order).
  binds.sort((a, b) => depth(a[1]) - depth(b[1]));
  for (const [flag, path] of binds) args.push(flag, path, path);
  if (egress !== undefined && typeof network === 'object') args.push(...egressBinds(egress));
  // The box's own root (where bubblewrap made the mount points) read-only too: a write outside
  // the grants and /tmp fails at once instead of landing in memory that vanishes with the box.
  args.push('--remount-ro', '/');
  args.push('--chdir', launch.cwd ?? BOX_HOME);
  const env: Record<string, string> = {};
  for (const name of grants.env ?? []) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, launch.env);
  // The proxy variables win over the entry's: the box has no other way out anyway.
  if (typeof network === 'object') Object.assign(env, egressEnvironment(env.NODE_OPTIONS));
  for (const name of inherited) if (!Object.hasOwn(env, name)) args.push('--unsetenv', name);
  if (!Object.hasOwn(env, 'PATH')) args.push('--setenv', 'PATH', BOX_PATH);
  if (!Object.hasOwn(env, 'HOME')) args.push('--setenv', 'HOME', BOX_HOME);
  args.push('--');
  if (typeof network === 'object') args.push(...relayCommand());
  // Limits set in the box by util-linux's prlimit, inherited by every process the server starts.
  const limits: string[] = [];
  if (grants.maxOpenFiles !== undefined)
    limits.push(`--nofile=${grants.maxOpenFiles}:${grants.maxOpenFiles}`);
  if (grants.maxMemoryBytes !== undefined)
    limits.push(`--data=${grants.maxMemoryBytes}:${grants.maxMemoryBytes}`);
  // The soft limit sends SIGXCPU (the process ends, by a signal that names the cause); the hard
  // one a second later SIGKILL, for a process that catches SIGXCPU.
  if (grants.maxCpuSeconds !== undefined)
    limits.push(`--cpu=${grants.maxCpuSeconds}:${grants.maxCpuSeconds + 1}`);
  if (limits.length > 0) args.push('prlimit', ...limits, '--');
  args.push(launch.command, ...launch.args);
  return { command: bwrap, args, env };
}

/** Where `path` points when it is a symlink (`/lib` → `usr/lib`), else `undefined`. */
function symlinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** `true` when `path` is `folder` or inside it. */
function isWithin(path: string, folder: string): boolean {
  const inside = relative(folder, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}

/** How many names deep `path` is (`/srv/notes`: 2). */
function depth(path: string): number {
  return path.split('/').filter(Boolean).length;
}

/** A bind of a relative path would resolve against the gateway's own directory: refused. */
function requireAbsolute(path: string, field: string): string {
  if (!isAbsolute(path)) throw new Error(`sandbox ${field} paths must be absolute`);
  return path;
}
