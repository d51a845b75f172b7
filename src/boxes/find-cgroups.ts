import { accessSync, constants, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GATEWAY_LEAF } from './cgroup-delegation.js';

/**
 * Where this process can make a child cgroup for each box: the folders (its own cgroups) under
 * which a box's cgroup is created, per controller. cgroup v2 has one folder for all; v1 one per
 * hierarchy (`cpu` and `cpuacct` often share one). `memory` and `cpu` are absent where that
 * controller cannot be used; `cpuacct` (v1 only: a v2 cgroup counts its CPU time in `cpu.stat`
 * on its own) where the box's CPU time cannot be counted.
 */
export interface CgroupParents {
  version: 1 | 2;
  pids: string;
  memory?: string;
  cpu?: string;
  cpuacct?: string;
  /**
   * cgroup v2 only: the controllers `pids` (the parent of every box) has but does not delegate
   * yet, which a box's cgroup delegates first (cgroup-delegation.ts: the gateway moves into a
   * leaf, the controllers go into `cgroup.subtree_control`); unset when nothing is left to do.
   */
  delegate?: string[];
}

/** Whether boxes get cgroups here: the parents, or why not (for `doctor` and the refusals). */
export type CgroupSupport =
  | { available: true; parents: CgroupParents }
  | { available: false; reason: string };

/** One line of `/proc/self/mountinfo` that mounts a cgroup file system. */
interface CgroupMount {
  root: string;
  mountPoint: string;
  v2: boolean;
  controllers: string[];
}

let found: CgroupSupport | undefined;

/** The controllers a box's cgroup v2 uses, in the order they are delegated. */
const V2_CONTROLLERS = ['pids', 'memory', 'cpu'] as const;

/**
 * Whether boxes can have a cgroup of their own here, found once per process: cgroup v2 when this
 * process's cgroup is writable and has `pids` (and `memory`, `cpu`), delegated to its children
 * already (`cgroup.subtree_control`) or to be delegated at the first box (the gateway moves into
 * a leaf cgroup: cgroup-delegation.ts), else cgroup v1 when the `pids` hierarchy (and `memory`'s) has a
 * writable cgroup of this process. Without either, a box has no process limit.
 */
export function findCgroups(): CgroupSupport {
  if (found === undefined) {
    found = detect(readOrEmpty('/proc/self/mountinfo'), readOrEmpty('/proc/self/cgroup'));
    if (found.available) removeAbandoned(found.parents);
  }
  return found;
}

/**
 * Removes the empty cgroups of gateways that are gone (killed with SIGKILL, they could not remove
 * their boxes' cgroups; the kernel ended the boxes' processes with them): `mcptools-<pid>-<n>`
 * whose pid no longer runs. A cgroup still in use cannot be removed and stays.
 */
function removeAbandoned(parents: CgroupParents): void {
  for (const parent of new Set([parents.pids, parents.memory, parents.cpu, parents.cpuacct])) {
    if (parent === undefined) continue;
    let entries: string[];
    try {
      entries = readdirSync(parent);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const owner = /^mcptools-(\d+)-\d+$/.exec(entry)?.[1];
      if (owner === undefined || running(Number(owner))) continue;
      try {
        rmdirSync(join(parent, entry));
      } catch {}
    }
  }
}

/** `true` while a process with `pid` exists (signal 0 checks without sending). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How {@link detect} looks at cgroup folders: the real file system unless given. */
export interface CgroupProbe {
  writable(dir: string): boolean;
  read(path: string): string;
}

/** {@link findCgroups} on the given `mountinfo` and `/proc/self/cgroup` texts. */
export function detect(
  mountinfo: string,
  ownCgroups: string,
  probe: CgroupProbe = { writable, read: readOrEmpty },
): CgroupSupport {
  if (process.platform !== 'linux') return { available: false, reason: 'cgroups exist only on Linux' };
  const mounts = parseMounts(mountinfo);
  const own = new Map<string, string>();
  for (const line of ownCgroups.split('\n')) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (match === null) continue;
    if (match[2] === '') own.set('', match[3]!);
    else for (const controller of match[2]!.split(',')) own.set(controller, match[3]!);
  }
  const v2 = mounts.find((mount) => mount.v2);
  if (v2 !== undefined && own.has('')) {
    let dir = folderOf(v2, own.get('')!);
    // A gateway started in a cgroup that another one delegated is in that one's leaf: its boxes go beside it.
    if (basename(dir) === GATEWAY_LEAF) dir = dirname(dir);
    const delegated = probe.read(join(dir, 'cgroup.subtree_control')).split(/\s+/);
    const available = probe.read(join(dir, 'cgroup.controllers')).split(/\s+/);
    const usable = V2_CONTROLLERS.filter((name) => delegated.includes(name) || available.includes(name));
    const delegate = usable.filter((name) => !delegated.includes(name));
    if (usable.includes('pids') && probe.writable(dir))
      return {
        available: true,
        parents: {
          version: 2,
          pids: dir,
          ...(usable.includes('memory') ? { memory: dir } : {}),
          ...(usable.includes('cpu') ? { cpu: dir } : {}),
          ...(delegate.length > 0 ? { delegate } : {}),
        },
      };
  }
  const v1 = (controller: string): string | undefined => {
    const mount = mounts.find((candidate) => !candidate.v2 && candidate.controllers.includes(controller));
    const path = own.get(controller);
    if (mount === undefined || path === undefined) return undefined;
    const dir = folderOf(mount, path);
    return probe.writable(dir) ? dir : undefined;
  };
  const pids = v1('pids');
  if (pids !== undefined) {
    const parents: CgroupParents = { version: 1, pids };
    for (const controller of ['memory', 'cpu', 'cpuacct'] as const) {
      const dir = v1(controller);
      if (dir !== undefined) parents[controller] = dir;
    }
    return { available: true, parents };
  }
  return {
    available: false,
    reason:
      v2 === undefined
        ? 'no writable cgroup v1 "pids" hierarchy and no cgroup v2 mount'
        : 'this process’s cgroup v2 is not writable or has no "pids" controller to delegate, and no writable cgroup v1 "pids" hierarchy',
  };
}

function parseMounts(mountinfo: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of mountinfo.split('\n')) {
    // `id parent major:minor root mount-point options [optional…] - type source super-options`
    const [before, after] = line.split(' - ');
    if (before === undefined || after === undefined) continue;
    const fields = before.split(' ');
    const [type, , superOptions = ''] = after.split(' ');
    if (type !== 'cgroup' && type !== 'cgroup2') continue;
    mounts.push({
      root: unescapeMount(fields[3] ?? '/'),
      mountPoint: unescapeMount(fields[4] ?? ''),
      v2: type === 'cgroup2',
      controllers: superOptions.split(','),
    });
  }
  return mounts;
}

/** The folder of cgroup `path` under `mount`, whose root may itself be a cgroup below `/`. */
function folderOf(mount: CgroupMount, path: string): string {
  const inside = mount.root !== '/' && path.startsWith(mount.root) ? path.slice(mount.root.length) : path;
  return join(mount.mountPoint, inside).replace(/(.)\/+$/, '$1');
}

/** mountinfo escapes spaces, tabs, newlines and backslashes as octal. */
function unescapeMount(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
