import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI as published, the package's `bin` (`npm run build` first). */
export const cliBin = fileURLToPath(new URL('../../dist/cli/main.cjs', import.meta.url));

/**
 * A scratch folder named `prefix…` with a home of its own (`dir/home`), and the environment that
 * points HOME and XDG_CONFIG_HOME there: no configuration of the machine running the tests is found.
 */
export function cliScratch(prefix: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'home'));
  return {
    dir,
    env: { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config') },
  };
}

/** How one run of the CLI ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to completion with `NO_COLOR` unset and no TTY. */
export function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliBin, ...args], { cwd, env, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A CLI process still running: its output so far, a wait for a line, and its end. */
export interface RunningCli {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches `pattern`; rejects after `timeoutMs`. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built CLI and returns while it runs. */
export function startCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): RunningCli {
  const child = spawn(process.execPath, [cliBin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    pid: child.pid ?? -1,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForStderr: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const check = () => {
          if (pattern.test(stderr)) return resolve();
          if (Date.now() - started > timeoutMs)
            return reject(new Error(`stderr never matched ${pattern}: ${stderr.slice(-2000)}`));
          setTimeout(check, 50);
        };
        check();
      }),
  };
}

/** Parses /proc/<pid>/stat: state and parent PID (Linux). */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return { state: fields[0] ?? '?', ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** PIDs whose parent is `pid` (Linux /proc). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (procStat(Number(entry))?.ppid === pid) children.push(Number(entry));
  }
  return children;
}

/** `true` while `pid` runs (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** Waits until `pid` has at least `count` children, and returns them. */
export async function waitForChildren(pid: number, count: number, timeoutMs = 60_000): Promise<number[]> {
  const started = Date.now();
  for (;;) {
    const children = childPids(pid);
    if (children.length >= count) return children;
    if (Date.now() - started > timeoutMs)
      throw new Error(`${pid} has ${children.length} children, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits up to `timeoutMs` for every PID to be gone; returns the survivors (and SIGKILLs them). */
export async function survivors(pids: number[], timeoutMs = 5_000): Promise<number[]> {
  const started = Date.now();
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    alive = alive.filter(isAlive);
  }
  for (const pid of alive) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  return alive;
}
