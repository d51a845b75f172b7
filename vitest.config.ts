import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/no-orphan-processes.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Eras are remembered in memory only: no test reads or writes the user's cache directory.
    env: { MCPTOOLS_ERA_CACHE: 'off' },
  },
});
