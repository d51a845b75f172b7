// CPU time and child processes of a process from Linux /proc (NaN / empty elsewhere).
import { readFileSync } from 'node:fs';

/** User + system CPU of process `pid` so far, in µs (Linux /proc, 10 ms ticks), or NaN. */
export function cpuUsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

/** The child process ids of this process (Linux), to find the server a client spawned. */
export function childPids() {
  try {
    const list = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
    return new Set(list.split(' ').filter(Boolean).map(Number));
  } catch {
    return new Set();
  }
}

/**
 * User + system CPU of process `pid` and of every process below it so far, in µs (Linux /proc),
 * or NaN. A gateway's stdio servers are its children; a server that dies meanwhile takes its
 * CPU with it, so read this around a window in which the tree does not change.
 */
export function treeCpuUsOf(pid) {
  let total = cpuUsOf(pid);
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {}
  for (const child of children) total += treeCpuUsOf(Number(child));
  return total;
}
