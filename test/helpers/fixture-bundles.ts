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
    // Only the fixtures' own TypeScript is bundled; the SDK and zod load from node_modules as Node
    // resolves them for the TypeScript files (a bundled copy of the SDK lost the progress
    // notifications of a 2025 stdio call). Node finds node_modules by walking up from the cache.
    packages: 'external',
    // The modules several fixtures share (serve.ts, echo-server.ts) load once per process from one chunk.
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
