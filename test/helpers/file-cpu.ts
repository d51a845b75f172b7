import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Vitest setup file, loaded only when `MCPTOOLS_TEST_CPU_LOG` names a file: appends one JSON line
 * per test file with the CPU seconds its worker spent on it and those of the child processes it
 * started and reaped (fixtures, the CLI, Redis), to find what makes `npm test` long.
 */

const LOG = process.env.MCPTOOLS_TEST_CPU_LOG;
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** This process's own and its reaped children's CPU time, in seconds, from /proc/self/stat. */
function cpuSeconds(): { own: number; children: number } {
  // The command name (field 2) may hold spaces; utime, stime, cutime, cstime are fields 14–17.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15).map(Number);
  return { own: (utime + stime) / TICKS, children: (cutime + cstime) / TICKS };
}

if (LOG) {
  // Setup files run again before each test file, before it is imported: the import counts too.
  const start = cpuSeconds();
  const startedAt = performance.now();
  // Vitest passes the file's suite second; its first argument must be a destructuring pattern.
  // biome-ignore lint/correctness/noEmptyPattern: nothing of the context is needed
  afterAll(({}, suite) => {
    const end = cpuSeconds();
    const file = relative(process.cwd(), suite.file.filepath);
    const line = {
      file,
      own: +(end.own - start.own).toFixed(2),
      children: +(end.children - start.children).toFixed(2),
      wall: +((performance.now() - startedAt) / 1000).toFixed(2),
    };
    appendFileSync(LOG, `${JSON.stringify(line)}\n`);
  });
}
