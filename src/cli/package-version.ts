import { readFileSync } from 'node:fs';

/**
 * The `version` of mcptools' own package.json, two folders above this module: `src/cli/` in a
 * checkout, `dist/cli/` (where the bundled binary sits too) in a build or an install.
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
