import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folders of one box's cgroup per controller (one folder for all under v2). */
export interface BoxCgroupDirs {
  version: 1 | 2;
  pids: string;
  memory?: string;
  cpu?: string;
}

/** The limits of one box, as its entry names them (for the reports). */
export interface BoxLimitValues {
  maxProcesses: number;
  maxMemoryBytes?: number;
  maxCpus?: number;
}

/** The kernel's counts of one box's limit hits, read from its cgroup's own files. */
export interface LimitCounts {
  /** Forks and clones refused at `pids.max` (`pids.events`: `max`). */
  forksRefused: number;
  /** Charges that met the memory limit (v1 `memory.failcnt`, v2 `memory.events`: `max`). */
  memoryAtLimit: number;
  /** Processes the kernel killed at the memory limit (`oom_kill` of v1 `memory.oom_control`, v2 `memory.events`). */
  oomKills: number;
  /** Periods in which the box used up its CPU quota and waited (`cpu.stat`: `nr_throttled`). */
  throttledPeriods: number;
  /** Periods in which the box ran (`cpu.stat`: `nr_periods`). */
  periods: number;
}

/** The counts of `dirs` now (0 for a controller the box has no folder of). */
export function readLimitCounts(dirs: BoxCgroupDirs): LimitCounts {
  const counts: LimitCounts = {
    forksRefused: 0,
    memoryAtLimit: 0,
    oomKills: 0,
    throttledPeriods: 0,
    periods: 0,
  };
  counts.forksRefused = counter(read(join(dirs.pids, 'pids.events')), 'max');
  if (dirs.memory !== undefined) {
    if (dirs.version === 2) {
      const events = read(join(dirs.memory, 'memory.events'));
      counts.memoryAtLimit = counter(events, 'max');
      counts.oomKills = counter(events, 'oom_kill');
    } else {
      counts.memoryAtLimit = Number(read(join(dirs.memory, 'memory.failcnt')).trim()) || 0;
      counts.oomKills = counter(read(join(dirs.memory, 'memory.oom_control')), 'oom_kill');
    }
  }
  if (dirs.cpu !== undefined) {
    const stat = read(join(dirs.cpu, 'cpu.stat'));
    counts.throttledPeriods = counter(stat, 'nr_throttled');
    counts.periods = counter(stat, 'nr_periods');
  }
  return counts;
}

/** The name of each limit's file in the cgroup, for the reports (users look them up by it). */
function limitFile(version: 1 | 2, limit: 'memory' | 'cpu'): string {
  if (limit === 'memory') return version === 2 ? 'memory.max' : 'memory.limit_in_bytes';
  return version === 2 ? 'cpu.max' : 'cpu.cfs_quota_us';
}

/**
 * One line per limit whose count went up from `before` to `now`, naming the setting and the
 * cgroup file, for the gateway's log while the server runs.
 */
export function newHits(
  server: string,
  version: 1 | 2,
  limits: BoxLimitValues,
  before: LimitCounts,
  now: LimitCounts,
): Partial<Record<'processes' | 'memory' | 'killed' | 'cpu', string>> {
  const hits: Partial<Record<'processes' | 'memory' | 'killed' | 'cpu', string>> = {};
  if (now.forksRefused > before.forksRefused)
    hits.processes = `server "${server}" hit its box's process limit (maxProcesses ${limits.maxProcesses}, pids.max): ${now.forksRefused} forks refused so far`;
  if (now.oomKills > before.oomKills)
    hits.killed = `server "${server}" hit its box's memory limit (maxMemoryBytes ${limits.maxMemoryBytes}, ${limitFile(version, 'memory')}): the kernel killed ${now.oomKills - before.oomKills} process${now.oomKills - before.oomKills === 1 ? '' : 'es'} of the box (out of memory)`;
  else if (now.memoryAtLimit > before.memoryAtLimit)
    hits.memory = `server "${server}" is at its box's memory limit (maxMemoryBytes ${limits.maxMemoryBytes}, ${limitFile(version, 'memory')}): ${now.memoryAtLimit} charges met it so far`;
  if (now.throttledPeriods > before.throttledPeriods)
    hits.cpu = `server "${server}" is throttled at its box's CPU quota (maxCpus ${limits.maxCpus}, ${limitFile(version, 'cpu')}): ${now.throttledPeriods} of ${now.periods} periods so far`;
  return hits;
}

/** The totals of a box's hits when its server ends, one phrase per limit hit (none: empty). */
export function hitSummary(version: 1 | 2, limits: BoxLimitValues, counts: LimitCounts): string[] {
  const hits: string[] = [];
  if (counts.forksRefused > 0)
    hits.push(`${counts.forksRefused} forks refused at ${limits.maxProcesses} processes (pids.max)`);
  if (counts.oomKills > 0)
    hits.push(
      `${counts.oomKills} processes killed at ${limits.maxMemoryBytes} bytes of memory (out of memory)`,
    );
  if (counts.throttledPeriods > 0)
    hits.push(
      `CPU throttled in ${counts.throttledPeriods} of ${counts.periods} periods at ${limits.maxCpus} CPUs (${limitFile(version, 'cpu')})`,
    );
  return hits;
}

/** The value of `name` in a cgroup `key value` file, 0 when absent. */
function counter(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return match === null ? 0 : Number(match[1]);
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
