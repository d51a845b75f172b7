// Launch helpers for the bench echo server (bench/servers/echo-server.mjs).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Absolute path of the bench echo server. */
export const ECHO_SERVER = fileURLToPath(new URL('../servers/echo-server.mjs', import.meta.url));

/** Absolute path of the bare-Node, 2025-era echo server the fan-out benchmark spawns by default. */
export const MINIMAL_ECHO_SERVER = fileURLToPath(
  new URL('../servers/minimal-echo-server.mjs', import.meta.url),
);

/** The stdio launch command: this very Node binary and the plain .mjs server, no npx, no tsx. */
export function echoStdioCommand(args = []) {
  return { command: process.execPath, args: [ECHO_SERVER, ...args] };
}

/** The stdio launch command of the minimal (bare Node, 2025-era) echo server. */
export function minimalEchoStdioCommand(args = []) {
  return { command: process.execPath, args: [MINIMAL_ECHO_SERVER, ...args] };
}

/** HTTP servers still running; killed on exit so a crashed or interrupted run leaves none behind. */
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => process.exit(130));
}

/** Starts the echo server over Streamable HTTP; resolves with its URL and a close function. */
export async function startHttpEcho(args = [], timeoutMs = 20_000) {
  const child = spawn(process.execPath, [ECHO_SERVER, '--http', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`echo server did not listen within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /^LISTENING (\S+)$/m.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`echo server exited with ${code}: ${stderr}`));
    });
  });
  const close = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { url, pid: child.pid, close };
}

/** Resolves after `ms`; lets dying child processes finish before the next timed step. */
export function settle(ms = 150) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
