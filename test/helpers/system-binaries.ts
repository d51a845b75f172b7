import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The system programs the suite drives for real, with the Debian package that installs each and
 * where it lands. `.ci/run` installs the same packages; a test that needs one asks `hasBinary`.
 */
export const SYSTEM_BINARIES = {
  'redis-server': { package: 'redis-server', candidates: () => ['/usr/bin/redis-server'] },
  // Installed with redis-server (its dependency redis-tools); the cluster tests use both.
  'redis-cli': { package: 'redis-server', candidates: () => ['/usr/bin/redis-cli'] },
  haproxy: { package: 'haproxy', candidates: () => ['/usr/sbin/haproxy'] },
  prometheus: { package: 'prometheus', candidates: () => ['/usr/bin/prometheus'] },
  chromium: {
    package: 'chromium',
    candidates: () => [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'],
  },
  bwrap: { package: 'bubblewrap', candidates: () => ['/usr/bin/bwrap'] },
  // The relay from a box to its egress proxy (a network allowlist).
  socat: { package: 'socat', candidates: () => ['/usr/bin/socat'] },
} as const satisfies Record<string, { package: string; candidates: () => (string | undefined)[] }>;

/** A program of `SYSTEM_BINARIES`. */
export type SystemBinary = keyof typeof SYSTEM_BINARIES;

/** The folder where test files record the binaries they missed; set by test/helpers/missing-binaries.ts. */
export const MISSING_BINARIES_ENV = 'MCPTOOLS_TEST_MISSING_BINARIES';
const RECORDS_FILE = 'records.tsv';

/**
 * Binaries to treat as missing although installed (comma-separated names), to see the skip path
 * and its summary on a machine that has everything: `MCPTOOLS_TEST_WITHOUT=haproxy,chromium`.
 */
const HIDDEN_ENV = 'MCPTOOLS_TEST_WITHOUT';

/** Where `name` is installed, or `undefined`; records nothing (for callers that do not skip). */
export function binaryPath(name: SystemBinary): string | undefined {
  if ((process.env[HIDDEN_ENV] ?? '').split(',').includes(name)) return undefined;
  return SYSTEM_BINARIES[name]
    .candidates()
    .find((path): path is string => path !== undefined && existsSync(path));
}

/**
 * Whether `name` is installed. When it is not, the calling test file is recorded so that the
 * run's summary names the binary and the file whose tests were skipped for it; use it as the
 * condition of `describe.skipIf` / `it.skipIf`.
 */
export function hasBinary(name: SystemBinary): boolean {
  if (binaryPath(name) !== undefined) return true;
  const records = process.env[MISSING_BINARIES_ENV];
  const file = currentTestFile() ?? 'a test file';
  if (records) appendFileSync(join(records, RECORDS_FILE), `${name}\t${file}\n`);
  else
    console.warn(
      `${file}: skipping the tests that need ${name} (apt-get install ${SYSTEM_BINARIES[name].package})`,
    );
  return false;
}

/**
 * The test file this worker is running, from Vitest's worker state. Read from the global rather
 * than through `expect.getState()` because the cluster harness that asks is also loaded by
 * benchmarks outside Vitest, which must not load Vitest.
 */
function currentTestFile(): string | undefined {
  return (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__?.filepath;
}

/** The binaries missing on this machine, with their packages. */
export function missingBinaries(): { name: SystemBinary; package: string }[] {
  return (Object.keys(SYSTEM_BINARIES) as SystemBinary[])
    .filter((name) => binaryPath(name) === undefined)
    .map((name) => ({ name, package: SYSTEM_BINARIES[name].package }));
}

/** The summary lines for the records in `folder`: one line per missing binary, with the files it skipped. */
export function missingBinarySummary(folder: string, root: string): string[] {
  const path = join(folder, RECORDS_FILE);
  if (!existsSync(path)) return [];
  const files = new Map<string, Set<string>>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [name, file] = line.split('\t');
    if (!name || !file) continue;
    if (!files.has(name)) files.set(name, new Set());
    files.get(name)?.add(relative(root, file));
  }
  return [...files].map(
    ([name, each]) =>
      `  ${name} (apt-get install ${SYSTEM_BINARIES[name as SystemBinary]?.package ?? name}): skipped tests in ${[...each].sort().join(', ')}`,
  );
}
