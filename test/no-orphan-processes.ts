import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: after the whole suite, no MCP server process that the suite started
 * may still be running ("close() … leaves no child process behind").
 * Linux only (reads /proc); elsewhere it checks nothing.
 */
const SERVER_MARKERS = [
  'test/fixtures/servers/',
  'test/cli/fixtures/',
  '@modelcontextprotocol/server-',
  'bench/servers/',
];

/** Process group of `pid` (field 5 of /proc/PID/stat); orphans keep it after re-parenting. */
function processGroup(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields after its closing parenthesis are plain.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2];
  } catch {
    return undefined;
  }
}

/** This checkout's root: fixtures and installed servers are started by their absolute paths under it. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function serverProcesses(): Map<number, string> {
  const found = new Map<number, string>();
  const group = processGroup('self');
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      // Only processes of this run's process group, or (stdio upstreams lead groups of their
      // own) started from this checkout: other runs on the machine are not ours.
      if (processGroup(pid) !== group && !commandLine.includes(ROOT)) continue;
      if (SERVER_MARKERS.some((marker) => commandLine.includes(marker))) found.set(pid, commandLine.trim());
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

export default function setup(): () => Promise<void> {
  const before = serverProcesses();
  return async () => {
    // Children get a moment to finish exiting after their last test file closed them.
    let leftovers: [number, string][] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      leftovers = [...serverProcesses()].filter(([pid]) => !before.has(pid));
      if (leftovers.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (const [pid] of leftovers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    // Vitest reports a teardown error but keeps its exit code: set ours so CI fails.
    process.exitCode = 1;
    throw new Error(
      `${leftovers.length} MCP server process(es) outlived the test suite:\n${leftovers
        .map(([pid, commandLine]) => `  ${pid} ${commandLine.slice(0, 200)}`)
        .join('\n')}`,
    );
  };
}
