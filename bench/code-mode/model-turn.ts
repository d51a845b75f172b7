// What the code-mode benches share: the pause a model's turn leaves between one call and the
// next, and the CPU this process spent, so that both benches time a script the same way.

/** The `--pause=MS` of the command line (default 50 ms; a model's turn is seconds). */
export const pauseMs = Number(process.argv.find((arg) => arg.startsWith('--pause='))?.slice(8) ?? 50);

/** Waits one model's turn: run_script frees a script's sandbox and makes the next one's in it. */
export function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, pauseMs));
}

/** The CPU milliseconds (user and system) this process spent since `start`. */
export function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
