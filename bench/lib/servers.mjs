// Launch helpers for the bench servers (bench/servers/): the echo server, and the bare SDK relay.
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

/** Absolute path of the bare SDK v2 relay, HTTP to stdio: the floor of a gateway on the SDK. */
export const SDK_RELAY = fileURLToPath(new URL('../servers/sdk-relay.mjs', import.meta.url));

/** Starts the echo server over Streamable HTTP; resolves with its URL, pid and a close function. */
export function startHttpEcho(args = [], timeoutMs = 20_000) {
  return startListening(ECHO_SERVER, ['--http', ...args], timeoutMs);
}

/**
 * Starts the bare SDK relay in front of `upstreams` stdio servers named `e0`, `e1`, …, each the
 * stdio echo server, in the 2025 era or `era: '2026-07-28'`; resolves with its URL, pid and a
 * close function.
 */
export function startSdkRelay(upstreams, { era, timeoutMs = 20_000, nodeArgs = [] } = {}) {
  const specs = Array.from({ length: upstreams }, (_unused, index) => {
    const { command, args } = echoStdioCommand();
    return `e${index}=${[command, ...args].join(',')}`;
  });
  return startListening(
    SDK_RELAY,
    [...(era === undefined ? [] : [`--era=${era}`]), ...specs],
    timeoutMs,
    nodeArgs,
  );
}

/**
 * Starts a bench server that prints `LISTENING <url>` on stderr once it serves; `nodeArgs` go to
 * Node before the script (`--cpu-prof`, …).
 */
async function startListening(script, args, timeoutMs, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not listen within ${timeoutMs} ms: ${stderr}`));
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
      reject(new Error(`${script} exited with ${code}: ${stderr}`));
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
