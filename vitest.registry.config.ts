import { defineConfig } from 'vitest/config';

// `npm run test:registry`: servers added by name and installed with npm (test/registry-e2e/):
// the catalog CLI against the registry fixture, whose npm installs are a minute of CPU, and
// published servers from npm's registry, which need the network. Both stay out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/registry-e2e/**/*.test.ts'],
    globalSetup: ['test/no-orphan-processes.ts', 'test/helpers/fixture-bundles.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    // Serve's default box is off except where a test turns it on: a fixture server runs from the
    // worktree, which a box without grants does not show (test/boxes covers the default box).
    env: { MCPTOOLS_ERA_CACHE: 'off', MCPTOOLS_SERVE_SANDBOX: 'off' },
  },
});
