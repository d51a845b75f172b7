import { defineConfig } from 'vitest/config';

// Test files run in parallel, each in its own forked worker. Most of a test's time is spent
// waiting on child processes (fixture servers, the built CLI, Redis), so more workers than the
// machine's two cores keep both busy; MCPTOOLS_TEST_WORKERS overrides it.
const workers = Number(process.env.MCPTOOLS_TEST_WORKERS ?? 3);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: [
      // Heavy fault and fuzz tests run with `npm run test:reliability`.
      'test/reliability/**',
      // The packed package (npm pack, install, npx) runs with `npm run test:package`.
      'test/package/**',
      // Published servers installed from npm run with `npm run test:registry`.
      'test/registry-e2e/**',
      '**/node_modules/**',
    ],
    globalSetup: [
      'test/no-orphan-processes.ts',
      // Before the bundles: under CI a missing binary fails the run at once.
      'test/helpers/missing-binaries.ts',
      'test/helpers/fixture-bundles.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: workers,
    // Eras are remembered in memory only: no test reads or writes the user's cache directory.
    env: { MCPTOOLS_ERA_CACHE: 'off' },
  },
});
