import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The leaf cgroup v2 the gateway's own processes move into, so that their cgroup can delegate. */
export const GATEWAY_LEAF = 'mcptools-gateway';

/** What one cgroup's delegation did, to undo exactly that. */
interface Delegation {
  holders: number;
  /** The controllers this process enabled in `cgroup.subtree_control` (others were there before). */
  enabled: string[];
  /** `true` when this process made the leaf and moved the cgroup's processes into it. */
  moved: boolean;
}

/** The delegations in force in this process, by cgroup folder (a path: one per folder). */
const delegations = new Map<string, Delegation>();

/**
 * Makes cgroup v2 folder `dir` (the gateway's own cgroup, writable) able to hold a cgroup per
 * box with `controllers`: cgroup v2 lets a cgroup other than the root enable controllers for its
 * children only while it holds no process itself, so the processes in `dir` (this gateway's, and
 * any started with it in the same service or container) move into the leaf
 * {@link GATEWAY_LEAF} beside which the boxes' cgroups are made, and then each controller of
 * `controllers` that `dir` has (`cgroup.controllers`) and does not delegate yet is written to
 * its `cgroup.subtree_control`. Held by count: every box's cgroup acquires it before it is made
 * and releases it once removed ({@link releaseCgroupDelegation}). Throws when the kernel
 * refuses a step (the start of that box fails with the reason; nothing is left half done).
 */
export function acquireCgroupDelegation(dir: string, controllers: readonly string[]): void {
  const held = delegations.get(dir);
  if (held !== undefined) {
    held.holders++;
    return;
  }
  const delegation: Delegation = { holders: 1, enabled: [], moved: false };
  try {
    const available = words(join(dir, 'cgroup.controllers'));
    const delegated = words(join(dir, 'cgroup.subtree_control'));
    const wanted = controllers.filter((name) => available.includes(name) && !delegated.includes(name));
    // The root of a hierarchy (it has no `cgroup.type`) may hold processes and delegate at once.
    const root = !existsSync(join(dir, 'cgroup.type'));
    for (const name of wanted) {
      // A process that the cgroup got since the move (a child forked just then) makes the kernel
      // refuse with EBUSY: move again, a few times.
      for (let attempt = 0; ; attempt++) {
        if (!root) delegation.moved = moveProcesses(dir, join(dir, GATEWAY_LEAF)) || delegation.moved;
        try {
          writeFileSync(join(dir, 'cgroup.subtree_control'), `+${name}`);
          delegation.enabled.push(name);
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EBUSY' || attempt >= 3) throw error;
        }
      }
    }
  } catch (error) {
    undo(dir, delegation);
    throw new Error(`could not delegate the cgroup ${dir} to the boxes: ${(error as Error).message}`);
  }
  delegations.set(dir, delegation);
}

/**
 * Gives back one hold of {@link acquireCgroupDelegation}. The last one undoes it: the controllers
 * this process enabled are disabled and the leaf's processes move back into `dir`, which is
 * left as it was found. Not while another cgroup than the leaf is in `dir` (another gateway's
 * boxes, started in the same cgroup, still need the controllers): then it stays as it is.
 */
export function releaseCgroupDelegation(dir: string): void {
  const delegation = delegations.get(dir);
  if (delegation === undefined || --delegation.holders > 0) return;
  delegations.delete(dir);
  let others: string[];
  try {
    others = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== GATEWAY_LEAF)
      .map((entry) => entry.name);
  } catch {
    return;
  }
  if (others.length === 0) undo(dir, delegation);
}

/** Disables what `delegation` enabled and moves the leaf's processes back; best effort. */
function undo(dir: string, delegation: Delegation): void {
  for (const name of delegation.enabled.reverse())
    try {
      writeFileSync(join(dir, 'cgroup.subtree_control'), `-${name}`);
    } catch {}
  if (!delegation.moved) return;
  const leaf = join(dir, GATEWAY_LEAF);
  try {
    moveProcesses(leaf, dir);
    rmdirSync(leaf);
  } catch {}
}

/**
 * Moves every process of cgroup `from` into cgroup `to` (made when missing); `true` when `to`
 * was made or a process moved. A process that ended meanwhile (`ESRCH`) is skipped.
 */
function moveProcesses(from: string, to: string): boolean {
  const pids = readFileSync(join(from, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
  if (pids.length === 0) return false;
  mkdirSync(to, { recursive: true });
  for (const pid of pids)
    try {
      writeFileSync(join(to, 'cgroup.procs'), pid);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  return true;
}

function words(path: string): string[] {
  return readFileSync(path, 'utf8').split(/\s+/).filter(Boolean);
}
