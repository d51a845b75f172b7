// The most processes `serve --http` has in its first 6 s, started in a folder whose
// .mcp.json lists mcptools itself five ways (direct path, npx, shell wrapper, its own URL,
// mcp-remote to it). Before the fix: 71 and growing. `npm run build`, then:
//   node bench/recursion-processes.mjs
import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'measure-'));
mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
symlinkSync(bin, join(dir, 'node_modules/.bin/mcptools'));
const port = Number(process.env.PORT ?? 18931);
writeFileSync(
  join(dir, '.mcp.json'),
  JSON.stringify({
    mcpServers: {
      direct: { command: process.execPath, args: [bin, 'serve', '--stdio'] },
      npx: { command: 'npx', args: ['-y', 'mcptools', 'serve', '--stdio'] },
      wrapped: { command: 'sh', args: ['-c', `exec node '${bin}' serve --stdio`] },
      url: { type: 'http', url: `http://127.0.0.1:${port}/mcp` },
      remote: { command: 'npx', args: ['-y', 'mcp-remote', `http://127.0.0.1:${port}/mcp`] },
    },
  }),
);
const parentOf = (pid) => {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
};
const count = (root) => {
  const parents = new Map();
  for (const e of readdirSync('/proc')) {
    const p = Number(e);
    if (Number.isInteger(p)) {
      const q = parentOf(p);
      if (q !== undefined) parents.set(p, q);
    }
  }
  const seen = new Set();
  const queue = [root];
  while (queue.length) {
    const c = queue.shift();
    for (const [p, q] of parents)
      if (q === c && !seen.has(p)) {
        seen.add(p);
        queue.push(p);
      }
  }
  return seen.size + 1;
};
const child = spawn(process.execPath, [bin, 'serve', '--http', `127.0.0.1:${port}`], {
  cwd: dir,
  stdio: 'ignore',
});
let peak = 0;
const started = Date.now();
while (Date.now() - started < 6000) {
  peak = Math.max(peak, count(child.pid));
  await new Promise((r) => setTimeout(r, 50));
}
const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    peakProcessesIncludingServe: peak,
    windowMs: 6000,
    states: health.servers.map((s) => `${s.name}:${s.state}`),
  }),
);
