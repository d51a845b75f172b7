import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: fault injection, hostile upstreams with heavy payloads and
// property-based fuzzing (test/reliability/). Kept out of the default run; bounded well under
// five minutes on a two-core machine.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    globalSetup: ['test/no-orphan-processes.ts', 'test/helpers/fixture-bundles.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
