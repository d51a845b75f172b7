// `npm test`'s runner: builds dist/ and type-checks src, test, bench and examples side by side,
// then runs the test command given after them (`vitest run …`) as soon as the build is done,
// while the type-check goes on: the tests read dist/ (the CLI, serve and docs tests), never the
// type-check's result, so on two cores its time no longer comes before the first test.
// Everything runs to the end so every error is printed; the type-check's output is held back
// until the tests end, so it is not lost among theirs. The step fails if any part fails.
//   node scripts/build-and-typecheck.mjs                  build and type-check only
//   node scripts/build-and-typecheck.mjs vitest run …     and the tests, once the build is done
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// TypeScript 7, the native compiler (its package exports no `bin/` path, so it is found beside
// its package.json); TypeScript 5.9 stays for the tests that read the compiler's API.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin', 'tsc');
const [testCommand, ...testArgs] = process.argv.slice(2);

// The npm that runs this script, when there is one (`npm test`), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

/** Runs `command` and resolves with its exit code; with `capture`, its output is kept and returned instead of printed. */
function run(name, command, args, capture = false) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, {
      cwd: root,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (capture) {
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
    }
    child.on('error', (error) => {
      console.error(`${name}: ${error.message}`);
      resolve({ code: 1, output });
    });
    child.on('close', (code, signal) => {
      if (code !== 0 && !capture) console.error(`${name} failed (${signal ?? `exit ${code}`})`);
      resolve({ code: code ?? 1, signal, output });
    });
  });
}

// Incremental: a run after a small change checks only what it touches.
const typecheck = run(
  'typecheck',
  process.execPath,
  [
    tsc,
    '-p',
    'tsconfig.json',
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    'node_modules/.cache/mcptools-tsc/typecheck.tsbuildinfo',
  ],
  testCommand !== undefined,
);

const build = run('build', npm[0], [...npm.slice(1), 'run', 'build', '--silent']).then(({ code }) => code);

let testCode = 0;
if (testCommand !== undefined) {
  if ((await build) === 0) testCode = (await run(testCommand, testCommand, testArgs)).code;
  else console.error(`build failed: ${testCommand} not run`);
}
const checked = await typecheck;
if (testCommand !== undefined) {
  process.stdout.write(checked.output);
  if (checked.code !== 0) console.error(`typecheck failed (${checked.signal ?? `exit ${checked.code}`})`);
}
process.exit((await build) === 0 && checked.code === 0 && testCode === 0 ? 0 : 1);
