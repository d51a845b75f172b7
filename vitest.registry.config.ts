import { defineConfig } from 'vitest/config';

// `npm run test:registry`: published servers added by name from the registry fixture and
// installed from npm (test/registry-e2e/). Needs npm's registry, so it is kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/registry-e2e/**/*.test.ts'],
    globalSetup: ['test/no-orphan-processes.ts', 'test/helpers/fixture-bundles.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    env: { MCPTOOLS_ERA_CACHE: 'off' },
  },
});
