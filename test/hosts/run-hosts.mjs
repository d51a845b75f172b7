#!/usr/bin/env node
// `npm run test:hosts`: installs two hosts' own CLIs, pinned and with install scripts off, into
// .hosts-compat/ (git-ignored, kept as a cache), then runs hosts.test.mjs: their MCP health
// checks (`claude mcp list`, `gemini mcp list`) after adding mcptools with the commands and
// settings docs/hosts/ gives, as written, against the `mcptools` command a clone installs with
// `npm install -g .` (into a prefix of the test's own), each in a HOME of its own, offline and
// with no account; then after `mcptools connect claude-code` and `connect gemini-cli` write their
// files.
//
// Claude Code ships a native binary per platform (an optional dependency); its postinstall only
// copies that binary over a placeholder, so it is run from its platform package instead. Gemini
// CLI is a bundle that runs on Node 20.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedInstall, installedVersion } from '../cached-install.mjs';

const CLAUDE_CODE_VERSION = '2.1.332';
const GEMINI_CLI_VERSION = '0.61.0';
const TEST_TIMEOUT_MS = 15 * 60_000;

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cache = join(repo, '.hosts-compat');

function fail(message) {
  process.stderr.write(`test:hosts: ${message}\n`);
  process.exit(2);
}

/** Whether `name` is installed at exactly `version` under a prefix. */
const pinned = (name, version) => (prefix) => installedVersion(prefix, name) === version;
const log = (line) => process.stderr.write(`test:hosts: ${line}\n`);

/** The native `claude` binary of this platform's package, installed beside the wrapper. */
function claudeBinary(prefix) {
  const scope = join(prefix, 'node_modules', '@anthropic-ai');
  const file = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const names = [
    `claude-code-${process.platform}-${process.arch}`,
    `claude-code-${process.platform}-${process.arch}-musl`,
  ];
  const found = names.map((name) => join(scope, name, file)).find((path) => existsSync(path));
  if (!found) fail(`no Claude Code binary for ${process.platform}-${process.arch} under ${scope}`);
  return found;
}

if (!existsSync(join(repo, 'dist', 'cli', 'main.cjs'))) fail('dist/ is missing: run `npm run build` first');
let claude;
let gemini;
try {
  claude = claudeBinary(
    cachedInstall(
      cache,
      'claude',
      `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
      pinned('@anthropic-ai/claude-code', CLAUDE_CODE_VERSION),
      log,
    ),
  );
  const geminiPrefix = cachedInstall(
    cache,
    'gemini',
    `@google/gemini-cli@${GEMINI_CLI_VERSION}`,
    pinned('@google/gemini-cli', GEMINI_CLI_VERSION),
    log,
  );
  gemini = join(geminiPrefix, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
} catch (error) {
  fail(error.message);
}

const test = spawnSync(
  process.execPath,
  // tsx: the test reads the pages' code blocks with the docs test's own extractor (TypeScript).
  ['--import', 'tsx', '--test', '--test-reporter=spec', join(repo, 'test', 'hosts', 'hosts.test.mjs')],
  {
    stdio: 'inherit',
    timeout: TEST_TIMEOUT_MS,
    env: { ...process.env, HOSTS_REPO: repo, HOSTS_CLAUDE: claude, HOSTS_GEMINI: gemini },
  },
);
if (test.error) fail(`the hosts test did not finish: ${test.error.message}`);
process.exit(test.status ?? 1);
