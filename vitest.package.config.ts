import { defineConfig } from 'vitest/config';

// `npm run test:package`: the package as npm users get it — packed, installed into an empty
// folder with no repository beside it (its dependencies come from the registry), and run there.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    globalSetup: ['test/no-orphan-processes.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
