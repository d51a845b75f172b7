import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: fault injection, hostile upstreams with heavy payloads and
// property-based fuzzing (test/reliability/), the multi-replica cluster files (Redis, replicas,
// HAProxy: failover, SIGKILLed owners, drains) and the status page in Chromium. Kept out of the
// default run to keep `npm test` short; `.ci/run` runs it.
export default defineConfig({
  test: {
    include: [
      'test/reliability/**/*.test.ts',
      'test/cluster/cluster-*.test.ts',
      'test/gateway/status-page-browser*.test.ts',
    ],
    globalSetup: [
      'test/no-orphan-processes.ts',
      // A skipped cluster or browser test is named at the end; under CI a missing binary fails.
      'test/helpers/missing-binaries.ts',
      'test/helpers/fixture-bundles.ts',
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    // Eras are remembered in memory only: no test reads or writes the user's cache directory.
    // Serve's default box is off except where a test turns it on: a fixture server runs from the
    // worktree, which a box without grants does not show (test/boxes covers the default box).
    env: { MCPTOOLS_ERA_CACHE: 'off', MCPTOOLS_SERVE_SANDBOX: 'off' },
  },
});
