import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { type ProcessGroupWatchdog, startProcessGroupWatchdog } from './process-group-watchdog.js';

/**
 * Whether children get process groups of their own here: on POSIX systems. On Windows a
 * child is spawned as before and ended by its pid alone.
 */
export const PROCESS_GROUPS = process.platform !== 'win32';

/** How long {@link endProcessGroups} lets the groups answer SIGTERM before it sends SIGKILL. */
export const GROUP_KILL_GRACE_MS = 300;

/** The process group of every child spawned by {@link spawnInProcessGroup} that is still running. */
const running = new Set<number>();
/** Started with the first group; ends the groups when this process dies without doing it (SIGKILL). */
let watchdog: ProcessGroupWatchdog | undefined;

/** Sends `signal` to every process of group `group`; a group that is gone already is no error. */
function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

/**
 * Spawns `command` as the leader of a process group of its own (its pid is the group's id),
 * so that it and every process it starts can be ended together, and whatever the process
 * does with SIGTERM or its stdin, ended for certain: by {@link endProcessGroups} when this
 * process is told to stop, and by a detached watchdog when this process is killed outright.
 * On Windows (no process groups) it is a plain `spawn`.
 */
export function spawnInProcessGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  if (!PROCESS_GROUPS) return spawn(command, args, options);
  // `detached` makes the child the leader of a new session and process group (setsid): a
  // terminal's Ctrl-C or a host's signal to this process's group no longer reaches it, so
  // this process ends the group itself (`endProcessGroups`).
  const child = spawn(command, args, { ...options, detached: true });
  const group = child.pid;
  if (group === undefined) return child;
  running.add(group);
  watchdog ??= startProcessGroupWatchdog();
  watchdog.watch(group);
  child.once('exit', () => {
    // The leader is gone: its pid may be reused once the group is empty, so it is no longer ours.
    running.delete(group);
    watchdog?.forget(group);
  });
  return child;
}

/** Resolves when `child` (not closed yet) has closed, its stdio too, or after `ms`; `true` when it closed. */
function closedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('close', onClose);
      resolve(false);
    }, ms);
    timer.unref();
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('close', onClose);
  });
}

/**
 * Ends one child spawned by {@link spawnInProcessGroup} (still open) politely, as the MCP stdio
 * transport asks: its stdin is closed, then after `graceMs` its whole group gets SIGTERM, and
 * after `graceMs` more SIGKILL. Whatever the leader left running in its group is ended with it.
 */
export async function endProcessGroup(child: ChildProcess, graceMs: number): Promise<void> {
  const group = child.pid;
  const closed = closedWithin(child, graceMs);
  try {
    child.stdin?.end();
  } catch {
    // A stdin that failed is closed already.
  }
  if (group === undefined) return;
  if (await closed) {
    // The leader ended on its stdin's end; what it started and left in its group is told to as well.
    signalGroup(group, 'SIGTERM');
    return;
  }
  signalGroup(group, 'SIGTERM');
  if (!(await closedWithin(child, graceMs))) signalGroup(group, 'SIGKILL');
  // What the leader started may outlive it, ignoring SIGTERM as it did.
  signalGroup(group, 'SIGKILL');
}

/**
 * Ends every process group {@link spawnInProcessGroup} started, at once: SIGTERM now, SIGKILL
 * after `graceMs` (default {@link GROUP_KILL_GRACE_MS}) to whatever ignored it or its stdin's
 * end. For a process that was told to stop (SIGTERM, SIGINT): a host that escalates to SIGKILL
 * soon after leaves nothing behind. Resolves once SIGKILL was sent.
 */
export async function endProcessGroups(graceMs = GROUP_KILL_GRACE_MS): Promise<void> {
  const groups = [...running];
  if (groups.length === 0) return;
  for (const group of groups) signalGroup(group, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  for (const group of groups) signalGroup(group, 'SIGKILL');
}
