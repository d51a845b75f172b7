import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BoxedLaunch } from './bwrap-command.js';
import type { CgroupParents } from './find-cgroups.js';

/** The limits a box's cgroup holds for all its processes together. */
export interface CgroupLimits {
  /** Processes and threads (`pids.max`). */
  maxProcesses: number;
  /** Memory of the box as a whole (`memory.max`, v1 `memory.limit_in_bytes`), when set and the controller is there. */
  maxMemoryBytes?: number;
}

/**
 * The shell that moves itself into each cgroup named before `--` and then becomes bubblewrap
 * (`exec`): every process of the box is in the cgroups from its first instruction, so none
 * escapes the limit by forking before it is moved.
 */
const JOIN_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';

/** Tells the cgroups of one gateway's boxes apart: `mcptools-<gateway pid>-<n>`. */
let sequence = 0;

/**
 * The cgroup of one boxed server's process, from before it starts until it ends: created with
 * the limits at `open()`, joined by the box's first process ({@link wrap}), and at `close()`
 * emptied (a process left is killed), reported when a limit was hit, and removed.
 */
export class BoxCgroup {
  readonly #dirs: string[];
  readonly #parents: CgroupParents;
  readonly #limits: CgroupLimits;
  readonly #report: (message: string) => void;
  readonly #server: string;

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
    const folders = new Set([parents.pids]);
    if (parents.memory !== undefined && limits.maxMemoryBytes !== undefined) folders.add(parents.memory);
    this.#dirs = [...folders].map((parent) => join(parent, name));
  }

  /** The folders of this box's cgroup (one under v2, one per hierarchy under v1). */
  get dirs(): readonly string[] {
    return this.#dirs;
  }

  /** `boxed` started through the shell that joins this cgroup first. */
  wrap(boxed: BoxedLaunch): BoxedLaunch {
    const procs = this.#dirs.map((dir) => join(dir, 'cgroup.procs'));
    return {
      command: '/bin/sh',
      args: ['-c', JOIN_SCRIPT, 'sh', ...procs, '--', boxed.command, ...boxed.args],
      env: boxed.env,
    };
  }

  /** Creates the cgroup and writes its limits. */
  async open(): Promise<void> {
    for (const dir of this.#dirs) mkdirSync(dir);
    const pids = this.#dirs[0]!;
    writeFileSync(join(pids, 'pids.max'), String(this.#limits.maxProcesses));
    const memory = this.#memoryDir();
    if (memory !== undefined)
      writeFileSync(
        join(memory, this.#parents.version === 2 ? 'memory.max' : 'memory.limit_in_bytes'),
        String(this.#limits.maxMemoryBytes),
      );
  }

  /** Reports the limits the box hit, ends what is left in it, and removes the cgroup. */
  async close(): Promise<void> {
    const hits = this.#hits();
    if (hits.length > 0) this.#report(`server "${this.#server}" hit its box's limits: ${hits.join(', ')}`);
    for (const dir of this.#dirs) await removeCgroup(dir);
  }

  #memoryDir(): string | undefined {
    if (this.#limits.maxMemoryBytes === undefined || this.#parents.memory === undefined) return undefined;
    return this.#dirs[this.#dirs.length - 1];
  }

  /** The limits hit, from the controllers' event counters. */
  #hits(): string[] {
    const hits: string[] = [];
    const forks = counter(read(join(this.#dirs[0]!, 'pids.events')), 'max');
    if (forks > 0) hits.push(`${forks} forks refused at ${this.#limits.maxProcesses} processes (pids.max)`);
    const memory = this.#memoryDir();
    if (memory !== undefined) {
      const events = read(join(memory, this.#parents.version === 2 ? 'memory.events' : 'memory.oom_control'));
      const kills = counter(events, 'oom_kill');
      if (kills > 0)
        hits.push(
          `${kills} processes killed at ${this.#limits.maxMemoryBytes} bytes of memory (out of memory)`,
        );
    }
    return hits;
  }
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
