import { type ChildProcess, spawn } from 'node:child_process';
/** Absolute path of the built CLI (`npm run build` first; `npm test` does). */
import { cliBin } from '../cli/cli-process.js';
import { killChild } from '../fixtures/spawn-http.js';

/** The built CLI. */
export const CLI_BIN = cliBin;

/** `mcptools serve --http 127.0.0.1:0` of the built CLI, running in a child process. */
export interface ServedHttp {
  /** `http://127.0.0.1:PORT/mcp`, from the CLI's `listening on` line. */
  url: string;
  child: ChildProcess;
  /** Everything the CLI wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM (SIGKILL after 10 s: the CLI closes its upstreams first), then waits for the exit. */
  close(): Promise<void>;
}

/** Starts the built CLI's `serve --http 127.0.0.1:0 ...args` and waits for its `listening on` line. */
export function startServeHttp(
  args: string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ServedHttp> {
  const child = spawn(process.execPath, [CLI_BIN, 'serve', '--http', '127.0.0.1:0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(options.env ? { env: options.env } : {}),
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void killChild(child);
      reject(new Error(`mcptools serve did not start within ${options.timeoutMs ?? 60_000} ms:\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/[^\s"]+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child, stderr: () => stderr, close: () => killChild(child, 10_000) });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mcptools serve exited with ${code}:\n${stderr}`));
    });
  });
}
