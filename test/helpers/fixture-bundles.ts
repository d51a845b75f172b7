import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Vitest global setup: bundles every fixture server of `test/fixtures/servers/` (and the CLI
 * tests' servers of `test/cli/fixtures/`) once per run with esbuild, so the suite's hundreds of fixture starts run plain JavaScript instead of transpiling
 * TypeScript through tsx at each start (several seconds each on a loaded two-core machine).
 */

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The folders whose servers are bundled: the shared fixtures, and the CLI tests' own servers. */
const SERVER_DIRS = [join(ROOT, 'test/fixtures/servers'), join(ROOT, 'test/cli/fixtures')];
/** Each run bundles into its own folder here, so two runs in one worktree never rewrite each other's files. */
const CACHE = join(ROOT, 'node_modules/.cache/mcptools-test-fixtures');
/** The variable `fixtureCommand` reads (test/fixtures/spawn-http.ts); set only once the bundles exist. */
export const FIXTURE_BUNDLES_ENV = 'MCPTOOLS_TEST_FIXTURE_BUNDLES';
/** A run's folder older than this belongs to a run that ended without its teardown. */
const STALE_MS = 24 * 60 * 60_000;

/**
 * Bundles the `*.ts` servers of those folders into `outDir`, keeping their path below it
 * (`<outDir>/test/fixtures/servers/<name>.mjs`): the orphan check and process listings recognise a
 * fixture by that path.
 */
export async function bundleFixtures(outDir: string): Promise<void> {
  const entryPoints = SERVER_DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(dir, file)),
  );
  await build({
    entryPoints,
    outdir: outDir,
    outbase: ROOT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // The SDK and zod are bundled in too: Node 20's ES module loader spends about a third of a
    // fixture's start resolving, reading and compiling their ~110 files one by one, where one chunk
    // is read and compiled at once. Bundled CommonJS dependencies call `require` for Node's
    // built-ins, which an ES module lacks. The v1 SDK (the `sse` fixture's frozen HTTP+SSE
    // transport) stays in node_modules: bundled, its progress notifications never reached the
    // client; Node finds node_modules by walking up from the cache.
    external: ['@modelcontextprotocol/sdk'],
    banner: {
      js: "import { createRequire as __fixtureRequire } from 'node:module'; const require = __fixtureRequire(import.meta.url);",
    },
    // The modules several fixtures share (serve.ts, echo-server.ts, the SDK) load once per process from one chunk.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}

function removeStaleRuns(): void {
  let runs: string[];
  try {
    runs = readdirSync(CACHE);
  } catch {
    return;
  }
  for (const run of runs) {
    const path = join(CACHE, run);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

export default async function setup(): Promise<() => void> {
  removeStaleRuns();
  const outDir = join(CACHE, `run-${process.pid}-${Date.now()}`);
  mkdirSync(outDir, { recursive: true });
  await bundleFixtures(outDir);
  // Workers are forked after global setup with this process's environment, so they inherit it.
  process.env[FIXTURE_BUNDLES_ENV] = outDir;
  return () => {
    delete process.env[FIXTURE_BUNDLES_ENV];
    rmSync(outDir, { recursive: true, force: true });
  };
}
