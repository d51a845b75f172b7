import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { cliBin } from '../cli/cli-process.js';
import { killChild } from '../fixtures/spawn-http.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { connectClient } from './gateway-test-helpers.js';

export { freePort } from '../helpers/free-port.js';

/** serve + the echo fixture, with room for a helper process: the recursion had 71 after 6 s. */
export const HANDFUL = 4;

/** A temporary root removed after the file's tests, and a maker of folders with JSON files in it. */
export function scratchFolder(prefix: string): {
  root: string;
  folder(name: string, files: Record<string, unknown>): string;
} {
  const root = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return {
    root,
    folder(name, files) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), JSON.stringify(content, null, 2));
      }
      return dir;
    },
  };
}

/** Parent pid of `pid` (field 4 of /proc/PID/stat), or `undefined` when it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root` (children, their children, …), read from /proc. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent !== undefined) parents.set(pid, parent);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [pid, parent] of parents) {
      if (parent === current && !found.includes(pid)) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

/** Whether `pid` still runs (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The most descendants `root` had, sampled every 100 ms for `ms`. */
export async function peakDescendants(root: number, ms: number): Promise<number> {
  let peak = 0;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    peak = Math.max(peak, descendants(root).length);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return peak;
}

/** `mcptools serve --http 127.0.0.1:PORT` of the built CLI in `cwd`, started and listening. */
export interface ServeRun {
  child: ChildProcess;
  pid: number;
  url: string;
  stderr(): string;
  stdout(): string;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `serve --http 127.0.0.1:PORT ...args` in `cwd` and waits for its `listening on` line. */
export function startServe(
  cwd: string,
  port: number,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServeRun> {
  const child = spawn(process.execPath, [cliBin, 'serve', '--http', `127.0.0.1:${port}`, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void killChild(child);
      reject(new Error(`serve did not listen within 60 s:\n${stderr}`));
    }, 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          child,
          pid: child.pid!,
          url: match[1],
          stderr: () => stderr,
          stdout: () => stdout,
          stop: async () => {
            child.kill('SIGTERM');
            const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
            const code = await exited;
            clearTimeout(timeout);
            return code;
          },
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${stderr}`));
    });
  });
}

/** One server's row of `/healthz`. */
export interface HealthRow {
  name: string;
  state: string;
  toolCount: number;
  lastError?: { code: string; message: string };
}

/** `GET /healthz` of a gateway whose MCP URL is `url`. */
export async function health(url: string): Promise<{ status: string; servers: HealthRow[] }> {
  const response = await fetch(new URL('/healthz', url));
  return (await response.json()) as { status: string; servers: HealthRow[] };
}

/** Rows of `/healthz` by server name. */
export const byName = (rows: HealthRow[]) => new Map(rows.map((row) => [row.name, row]));

/** The tool names a legacy-era client lists at `url`. */
export async function toolNames(url: string): Promise<string[]> {
  const client = await connectClient(url, 'legacy');
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

/** Calls `name` with `{ text }` at `url`; resolves its text. */
export async function callEcho(url: string, name: string, text: string): Promise<string> {
  const client = await connectClient(url, 'legacy');
  try {
    return textOf((await client.callTool({ name, arguments: { text } })) as { content: { type: string }[] });
  } finally {
    await client.close();
  }
}
