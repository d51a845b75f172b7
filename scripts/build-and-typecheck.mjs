// `npm test`'s first step: builds dist/ (`npm run build`: the CLI and package tests run it) and
// type-checks src, test, bench and examples, side by side. Each is one single-threaded tsc, so on
// two cores the pair takes as long as the longer one instead of both. Both run to the end, so every
// error of either is printed; the step fails if either fails.
//   node scripts/build-and-typecheck.mjs
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// The npm that runs this script, when there is one (`npm test`), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

const steps = {
  build: [...npm, 'run', 'build', '--silent'],
  // Incremental: a run after a small change checks only what it touches.
  typecheck: [
    process.execPath,
    tsc,
    '-p',
    'tsconfig.json',
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    'node_modules/.cache/mcptools-tsc/typecheck.tsbuildinfo',
  ],
};

const codes = await Promise.all(
  Object.entries(steps).map(
    ([name, [command, ...args]]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
        child.on('error', (error) => {
          console.error(`${name}: ${error.message}`);
          resolve(1);
        });
        child.on('exit', (code, signal) => {
          if (code !== 0) console.error(`${name} failed (${signal ?? `exit ${code}`})`);
          resolve(code ?? 1);
        });
      }),
  ),
);
process.exit(codes.every((code) => code === 0) ? 0 : 1);
