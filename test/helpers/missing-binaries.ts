import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MISSING_BINARIES_ENV, missingBinaries, missingBinarySummary } from './system-binaries.js';

/**
 * Vitest global setup: at the end of the run, names each system binary that was missing and the
 * test files whose tests were skipped for it (recorded by `hasBinary`), so a green run cannot hide
 * a skip. Under CI (`CI=true`) a missing binary fails the run at once: CI installs them all.
 */

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export default function setup(): () => void {
  const missing = missingBinaries();
  if (process.env.CI === 'true' && missing.length > 0)
    throw new Error(
      `CI=true but these binaries are missing: ${missing.map((each) => `${each.name} (apt-get install ${each.package})`).join(', ')}`,
    );
  const folder = mkdtempSync(join(tmpdir(), 'mcptools-missing-binaries-'));
  process.env[MISSING_BINARIES_ENV] = folder;
  return () => {
    const lines = missingBinarySummary(folder, ROOT);
    if (lines.length > 0)
      console.warn(`\nMissing binaries; the tests that need them were skipped:\n${lines.join('\n')}\n`);
    delete process.env[MISSING_BINARIES_ENV];
    rmSync(folder, { recursive: true, force: true });
  };
}
