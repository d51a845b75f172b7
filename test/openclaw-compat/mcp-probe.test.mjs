// Run by run.mjs under Node 24 (OpenClaw 2026.9 needs it). OpenClaw's own `openclaw mcp add`
// (which probes before it saves) and `openclaw mcp probe`, with their default transport
// (HTTP+SSE, 2024-11-05), against `mcptools serve --http` (the built CLI, under the Node that
// runs run.mjs) at the URL its banner prints: "OpenClaw's default transport cannot
// connect".
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

const openclawRoot = process.env.OPENCLAW_COMPAT_ROOT;
const repo = process.env.OPENCLAW_COMPAT_REPO;
const hostNode = process.env.OPENCLAW_COMPAT_HOST_NODE;
const run = promisify(execFile);
const TOKEN = 'openclaw-probe-token';

let scratch;
let gateway;
let url;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'openclaw-probe-'));
  const config = join(scratch, 'mcptools.json');
  const echo = join(repo, 'test', 'fixtures', 'servers', 'echo.ts');
  writeFileSync(
    config,
    JSON.stringify({ servers: { echo: { command: hostNode, args: ['--import', 'tsx', echo], cwd: repo } } }),
  );
  gateway = spawn(
    hostNode,
    [join(repo, 'dist', 'cli', 'main.js'), 'serve', '--http', '127.0.0.1:0', '--config', config],
    { cwd: repo, env: { ...process.env, MCPTOOLS_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  url = await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 90_000);
    const read = (chunk) => {
      output += chunk;
      // The banner comes once every server connected (or failed).
      const match = /MCP endpoint:\s+(http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    gateway.stdout.setEncoding('utf8').on('data', read);
    gateway.stderr.setEncoding('utf8').on('data', read);
    gateway.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
});

after(() => {
  gateway?.kill('SIGTERM');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `openclaw <args>` in a fresh HOME; resolves with its stdout, or rejects with its output. */
async function openclaw(home, args) {
  const env = { ...process.env, HOME: home, XDG_STATE_HOME: '' };
  delete env.OPENCLAW_STATE_DIR;
  const { stdout } = await run(process.execPath, [join(openclawRoot, 'openclaw.mjs'), ...args], {
    env,
    timeout: 3 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

describe('OpenClaw against mcptools serve --http, default transport (HTTP+SSE)', { timeout: 600_000 }, () => {
  it('mcp add probes and saves the URL the banner prints; mcp probe lists the tools', async () => {
    const home = mkdtempSync(join(scratch, 'home-'));
    const added = await openclaw(home, [
      'mcp',
      'add',
      'mcptools',
      '--url',
      url,
      '--header',
      `Authorization=Bearer ${TOKEN}`,
    ]);
    assert.match(added, /Saved MCP server "mcptools"/);
    const probed = await openclaw(home, ['mcp', 'probe', 'mcptools', '--json']);
    const report = JSON.parse(probed.slice(probed.indexOf('{')));
    assert.equal(report.servers.mcptools.launch, url);
    assert.ok(report.tools.includes('mcptools__echo__echo'), JSON.stringify(report.tools));
    assert.deepEqual(report.diagnostics, []);
  });

  it('is refused without the token (nothing saved)', async () => {
    const home = mkdtempSync(join(scratch, 'home-'));
    await assert.rejects(openclaw(home, ['mcp', 'add', 'mcptools', '--url', url]));
  });
});
