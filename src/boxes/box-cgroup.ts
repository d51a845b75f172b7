import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BoxCgroupDirs,
  hitSummary,
  type LimitCounts,
  newHits,
  readLimitCounts,
} from './box-limit-hits.js';
import type { BoxedLaunch } from './bwrap-command.js';
import { acquireCgroupDelegation, releaseCgroupDelegation } from './cgroup-delegation.js';
import type { CgroupParents } from './find-cgroups.js';

/** The limits a box's cgroup holds for all its processes together. */
export interface CgroupLimits {
  /** Processes and threads (`pids.max`). */
  maxProcesses: number;
  /** Memory of the box as a whole (`memory.max`, v1 `memory.limit_in_bytes`), when set and the controller is there. */
  maxMemoryBytes?: number;
  /** CPUs' worth of time per period (`cpu.max`, v1 `cpu.cfs_quota_us`), when set and the controller is there. */
  maxCpus?: number;
}

/** The CFS period of a box's CPU quota: 100 ms, the kernel's default. */
export const CPU_PERIOD_MICROS = 100_000;

/** How often the running boxes' limit counters are read (one timer for all boxes). */
const WATCH_MS = 1000;
/** A limit that keeps being hit (a box at its CPU quota, a fork loop) is logged again at most this often. */
const REPEAT_MS = 60_000;

/**
 * The shell that moves itself into each cgroup named before `--` and then becomes bubblewrap
 * (`exec`): every process of the box is in the cgroups from its first instruction, so none
 * escapes the limit by forking before it is moved.
 */
const JOIN_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';

/** Tells the cgroups of one gateway's boxes apart: `mcptools-<gateway pid>-<n>`. */
let sequence = 0;

type Controller = 'pids' | 'memory' | 'cpu' | 'cpuacct';

/**
 * The cgroup of one boxed server's process, from before it starts until it ends: created with
 * the limits at `open()`, joined by the box's first process ({@link wrap}), watched while it runs
 * (each limit hit is reported when the kernel counts it, and again at `exited()`, before the
 * server's exit is reported), and at `close()` emptied (a process left is killed), summed up
 * when a limit was hit, and removed.
 */
export class BoxCgroup {
  /** Boxes whose counters the shared timer reads. */
  static readonly #watched = new Set<BoxCgroup>();
  static #timer: NodeJS.Timeout | undefined;

  /** The folder of this box's cgroup per controller (one under v2, one per hierarchy under v1). */
  readonly #dirs = new Map<Controller, string>();
  readonly #parents: CgroupParents;
  readonly #limits: CgroupLimits;
  readonly #report: (message: string) => void;
  readonly #server: string;
  /** The counts last reported, and when, per limit (a kill is reported at each one). */
  #reported: LimitCounts = {
    forksRefused: 0,
    memoryAtLimit: 0,
    oomKills: 0,
    throttledPeriods: 0,
    periods: 0,
  };
  readonly #reportedAt = new Map<string, number>();

  /**
   * `report` gets each limit hit while the server runs and the summary when it ends (the
   * gateway's log and the server's stderr tail, so the error of a server killed at a limit names it).
   */
  constructor(
    server: string,
    parents: CgroupParents,
    limits: CgroupLimits,
    report: (message: string) => void,
  ) {
    this.#server = server;
    this.#parents = parents;
    this.#limits = limits;
    this.#report = report;
    const name = `mcptools-${process.pid}-${++sequence}`;
    const wanted: [Controller, string | undefined][] = [
      ['pids', parents.pids],
      ['memory', limits.maxMemoryBytes === undefined ? undefined : parents.memory],
      ['cpu', limits.maxCpus === undefined ? undefined : parents.cpu],
      // v1 counts CPU time in its own hierarchy; every box joins it where it can, quota or not.
      ['cpuacct', parents.cpuacct],
    ];
    for (const [controller, parent] of wanted)
      if (parent !== undefined) this.#dirs.set(controller, join(parent, name));
  }

  /** The folders of this box's cgroup (one under v2, one per hierarchy under v1). */
  get dirs(): readonly string[] {
    return [...new Set(this.#dirs.values())];
  }

  /**
   * The folder of this box's cgroup that holds `controller`'s files (`cpuacct.usage` under v1's
   * `cpuacct`, `cpu.stat` under v2), if the box has one.
   */
  dir(controller: Controller): string | undefined {
    if (this.#parents.version === 2 && controller === 'cpuacct') return this.#dirs.get('pids');
    return this.#dirs.get(controller);
  }

  /** `boxed` started through the shell that joins this cgroup first. */
  wrap(boxed: BoxedLaunch): BoxedLaunch {
    const procs = this.dirs.map((dir) => join(dir, 'cgroup.procs'));
    return {
      command: '/bin/sh',
      args: ['-c', JOIN_SCRIPT, 'sh', ...procs, '--', boxed.command, ...boxed.args],
      env: boxed.env,
    };
  }

  /**
   * Creates the cgroup (under cgroup v2 after delegating the parent, see cgroup-delegation.ts),
   * writes its limits and starts watching its counters.
   */
  async open(): Promise<void> {
    const delegate = this.#parents.delegate;
    if (delegate !== undefined) acquireCgroupDelegation(this.#parents.pids, delegate);
    try {
      for (const dir of this.dirs) mkdirSync(dir);
      this.#writeLimits();
    } catch (error) {
      for (const dir of this.dirs) await removeCgroup(dir);
      if (delegate !== undefined) releaseCgroupDelegation(this.#parents.pids);
      throw error;
    }
    BoxCgroup.#watch(this);
  }

  #writeLimits(): void {
    const v2 = this.#parents.version === 2;
    writeFileSync(join(this.#dirs.get('pids')!, 'pids.max'), String(this.#limits.maxProcesses));
    const memory = this.#dirs.get('memory');
    if (memory !== undefined)
      writeFileSync(
        join(memory, v2 ? 'memory.max' : 'memory.limit_in_bytes'),
        String(this.#limits.maxMemoryBytes),
      );
    const cpu = this.#dirs.get('cpu');
    if (cpu !== undefined) {
      const quota = Math.max(1000, Math.round(this.#limits.maxCpus! * CPU_PERIOD_MICROS));
      if (v2) writeFileSync(join(cpu, 'cpu.max'), `${quota} ${CPU_PERIOD_MICROS}`);
      else {
        writeFileSync(join(cpu, 'cpu.cfs_period_us'), String(CPU_PERIOD_MICROS));
        writeFileSync(join(cpu, 'cpu.cfs_quota_us'), String(quota));
      }
    }
  }

  /**
   * The server's process has exited: its limit hits are reported now, before its exit is (the
   * kernel counted a kill before the process was gone), so the exit's error names the limit.
   */
  exited(): void {
    this.#check(true);
  }

  /** Reports the limits the box hit, ends what is left in it, removes the cgroup, and gives back the delegation. */
  async close(): Promise<void> {
    BoxCgroup.#unwatch(this);
    const hits = hitSummary(this.#parents.version, this.#limits, readLimitCounts(this.#counted()));
    if (hits.length > 0) this.#report(`server "${this.#server}" hit its box's limits: ${hits.join(', ')}`);
    for (const dir of this.dirs) await removeCgroup(dir);
    if (this.#parents.delegate !== undefined) releaseCgroupDelegation(this.#parents.pids);
  }

  /** The folders the counters are read from. */
  #counted(): BoxCgroupDirs {
    const memory = this.#dirs.get('memory');
    const cpu = this.#dirs.get('cpu');
    return {
      version: this.#parents.version,
      pids: this.#dirs.get('pids')!,
      ...(memory === undefined ? {} : { memory }),
      ...(cpu === undefined ? {} : { cpu }),
    };
  }

  /**
   * Reports each limit whose count went up since it was last reported: a kill at once, a limit
   * that keeps being met at most every {@link REPEAT_MS} (or at once when `final`).
   */
  #check(final = false): void {
    const now = readLimitCounts(this.#counted());
    const hits = newHits(this.#server, this.#parents.version, this.#limits, this.#reported, now);
    const at = Date.now();
    const next = { ...this.#reported };
    for (const [limit, message] of Object.entries(hits)) {
      const last = this.#reportedAt.get(limit);
      if (limit !== 'killed' && !final && last !== undefined && at - last < REPEAT_MS) continue;
      this.#reportedAt.set(limit, at);
      this.#report(message);
      if (limit === 'processes') next.forksRefused = now.forksRefused;
      if (limit === 'killed' || limit === 'memory') {
        next.oomKills = now.oomKills;
        next.memoryAtLimit = now.memoryAtLimit;
      }
      if (limit === 'cpu') {
        next.throttledPeriods = now.throttledPeriods;
        next.periods = now.periods;
      }
    }
    this.#reported = next;
  }

  static #watch(box: BoxCgroup): void {
    BoxCgroup.#watched.add(box);
    if (BoxCgroup.#timer !== undefined) return;
    BoxCgroup.#timer = setInterval(() => {
      for (const watched of BoxCgroup.#watched) watched.#check();
    }, WATCH_MS);
    BoxCgroup.#timer.unref();
  }

  static #unwatch(box: BoxCgroup): void {
    BoxCgroup.#watched.delete(box);
    if (BoxCgroup.#watched.size > 0 || BoxCgroup.#timer === undefined) return;
    clearInterval(BoxCgroup.#timer);
    BoxCgroup.#timer = undefined;
  }
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Removes a box's cgroup: its processes are killed first (`cgroup.kill` under v2, SIGKILL to
 * each listed process under v1), then the folder is removed once the kernel has let them go.
 */
async function removeCgroup(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const pids = read(join(dir, 'cgroup.procs')).split('\n').filter(Boolean);
    if (pids.length === 0) {
      try {
        rmdirSync(dir);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return;
        if (code !== 'EBUSY') throw error;
      }
    } else {
      try {
        writeFileSync(join(dir, 'cgroup.kill'), '1');
      } catch {
        for (const pid of pids)
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {}
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
