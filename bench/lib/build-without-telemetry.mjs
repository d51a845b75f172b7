// Builds the current source with its telemetry cut out: each per-call entry point of
// src/telemetry/ returns what it wraps at its first statement (`observeToolCall` → `run()`,
// `traceContextMeta` → `undefined`, …), everything else unchanged. It is the "build without
// telemetry" of bench/telemetry-cost.mjs: the same code, the same run, minus the instrumentation.
//   node bench/lib/build-without-telemetry.mjs [OUT_DIR]   (prints the dist/ it built)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** File → [function signature start, statement put first in its body]. */
const CUTS = {
  'telemetry/tool-call-telemetry.ts': [['export function observeToolCall(', 'return run();']],
  'telemetry/upstream-request-telemetry.ts': [
    ['export function observeUpstreamRequest<T>(', 'return send();'],
  ],
  'telemetry/connect-telemetry.ts': [['export function observeConnect<T>(', 'return connect();']],
  'telemetry/downstream-request-telemetry.ts': [
    ['export function observeDownstreamRequest<T>(', 'return serve();'],
  ],
  'telemetry/trace-context.ts': [
    ['export function traceContextMeta(', 'return undefined;'],
    ['export function withContextForInjection<T>(', 'return run();'],
  ],
};

/** Puts `statement` first in the body of the function declared at `signature` in `source`. */
function cut(source, signature, statement, file) {
  const at = source.indexOf(signature);
  if (at < 0) throw new Error(`${file}: "${signature}" not found (the cut list is out of date)`);
  // The body opens at the first "{" at the end of a line after the signature.
  const open = source.indexOf('{\n', source.indexOf(')', at));
  return `${source.slice(0, open + 2)}  ${statement}\n${source.slice(open + 2)}`;
}

/** Builds the cut copy into `out` (default: a fresh temporary directory); returns its dist/. */
export function buildWithoutTelemetry(out = join(tmpdir(), `mcptools-no-telemetry-${process.pid}`)) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(join(root, 'src'), join(out, 'src'), { recursive: true });
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package.json'])
    cpSync(join(root, file), join(out, file));
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
  for (const [file, cuts] of Object.entries(CUTS)) {
    const path = join(out, 'src', file);
    let source = readFileSync(path, 'utf8');
    for (const [signature, statement] of cuts) source = cut(source, signature, statement, file);
    writeFileSync(path, source);
  }
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript-7/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: out,
      stdio: 'inherit',
    },
  );
  return join(out, 'dist');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(buildWithoutTelemetry(process.argv[2]));
