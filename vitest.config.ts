import { defineConfig } from 'vitest/config';

// Test files run in parallel, each in its own forked worker. Most of a test's time is spent
// waiting on child processes (fixture servers, the built CLI, Redis), so more workers than the
// machine's two cores keep both busy; MCPTOOLS_TEST_WORKERS overrides it.
const workers = Number(process.env.MCPTOOLS_TEST_WORKERS ?? 3);

/** Every test file of `npm test`. */
const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];
const exclude = [
  // Heavy fault and fuzz tests run with `npm run test:reliability`, and so do the
  // multi-replica cluster files (each starts Redis, replicas and a balancer) and the browser.
  'test/reliability/**',
  'test/cluster/cluster-*.test.ts',
  'test/gateway/status-page-browser*.test.ts',
  // The packed package (npm pack, install, npx) runs with `npm run test:package`.
  'test/package/**',
  // Servers added by name and installed with npm run with `npm run test:registry`.
  'test/registry-e2e/**',
  '**/node_modules/**',
];

/**
 * Files that register OpenTelemetry's global providers: the API takes one registration per
 * process and the source keeps the meters it got, so each of these runs in a process of its own.
 */
const ownProcess = [
  'test/telemetry/**/*.test.ts',
  'test/code-mode/script-span.test.ts',
  'test/gateway/gateway-principal-quotas.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: [
      'test/no-orphan-processes.ts',
      // Before the bundles: under CI a missing binary fails the run at once.
      'test/helpers/missing-binaries.ts',
      'test/helpers/fixture-bundles.ts',
    ],
    // MCPTOOLS_TEST_CPU_LOG=<file> logs each test file's CPU seconds (its worker's and children's).
    setupFiles: process.env.MCPTOOLS_TEST_CPU_LOG ? ['test/helpers/file-cpu.ts'] : [],
    // The transformed source and tests are kept in node_modules/.experimental-vitest-cache/ between runs: a run
    // after a small change transforms only what changed (`vitest --clearCache` empties it).
    experimental: { fsModuleCache: true },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: workers,
    // Eras are remembered in memory only: no test reads or writes the user's cache directory.
    // Serve's default box is off except where a test turns it on: a fixture server runs from the
    // worktree, which a box without grants does not show (test/boxes covers the default box).
    env: { MCPTOOLS_ERA_CACHE: 'off', MCPTOOLS_SERVE_SANDBOX: 'off' },
    projects: [
      {
        // A worker runs file after file in one process, importing the source once: a fresh
        // process and module graph per file cost about 0.75 s of CPU each, a third of the
        // suite's on two cores. Every file closes what it starts and restores what it changes.
        extends: true,
        test: { name: 'shared', isolate: false, include, exclude: [...exclude, ...ownProcess] },
      },
      { extends: true, test: { name: 'own-process', include: ownProcess, exclude } },
    ],
  },
});
