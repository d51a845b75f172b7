import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of `pid` in bytes, from /proc/PID/status (Linux); `undefined` once it is gone. */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** How many file descriptors `pid` holds open (entries of /proc/PID/fd, Linux). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Samples `pid`'s RSS every `everyMs` until stopped; `stop()` returns the peak in bytes. */
export function rssPeakSampler(pid: number, everyMs = 25): { stop(): number } {
  let peak = rssBytes(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid) ?? 0);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssBytes(pid) ?? 0);
    },
  };
}

/** Bytes as MiB with one decimal. */
export const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
