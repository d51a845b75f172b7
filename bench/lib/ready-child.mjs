// A benchmark's helper process: started with `node <script> …args`, ready once it prints
// `ready <url>`, stopped by ending its standard input.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** Node flags for helper processes (`MCPTOOLS_BENCH_CHILD_FLAGS="--cpu-prof"` to profile them). */
const CHILD_FLAGS = (process.env.MCPTOOLS_BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean);

/** Starts `script` with `args` (and `env` added); resolves with its URL, pid and `stop()`. */
export async function startReadyChild(script, args, env = {}) {
  const child = spawn(process.execPath, [...CHILD_FLAGS, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await Promise.race([
    (async () => {
      for await (const line of lines) if (line.startsWith('ready ')) return line.slice(6);
    })(),
    once(child, 'exit').then(([code]) => {
      throw new Error(`${script} exited (${code}) before it was ready`);
    }),
  ]);
  return {
    url,
    pid: child.pid,
    async stop() {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}
