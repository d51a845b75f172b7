// Run by run-hosts.mjs (`npm run test:hosts`). Each host's own MCP health check, as a user runs
// it after adding mcptools the way docs/hosts/ says: `claude mcp list` (Claude Code) and
// `gemini mcp list` (Gemini CLI) against the built `mcptools serve --stdio` (the host starts it)
// and `serve --http` (running, at the URL its banner prints). A third entry at a closed port
// shows each check can fail. Every host runs in a HOME of its own: no account, no network.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const repo = process.env.HOSTS_REPO;
const run = promisify(execFile);
const cli = join(repo, 'dist', 'cli', 'main.cjs');
const tsx = pathToFileURL(createRequire(join(repo, 'package.json')).resolve('tsx')).href;

let scratch;
let config;
// A server that sleeps 8 s before it answers (longer than Gemini CLI's 5 s for `initialize`).
let slowConfig;
let gateway;
let gatewayLog = '';
let url;
let deadUrl;

/** A loopback port that was free a moment ago (bound once and let go): nothing listens there. */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mcptools-hosts-'));
  config = join(scratch, 'mcptools.json');
  const echo = join(repo, 'test', 'fixtures', 'servers', 'echo.ts');
  writeFileSync(
    config,
    JSON.stringify({ servers: { echo: { command: process.execPath, args: ['--import', tsx, echo] } } }),
  );
  slowConfig = join(scratch, 'mcptools-slow.json');
  writeFileSync(
    slowConfig,
    JSON.stringify({
      servers: {
        slow: { command: process.execPath, args: ['--import', tsx, echo, '--start-delay-ms', '8000'] },
      },
    }),
  );
  deadUrl = `http://127.0.0.1:${await closedPort()}/mcp`;
  gateway = spawn(process.execPath, [cli, 'serve', '--http', '127.0.0.1:0', '--config', config], {
    cwd: scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${gatewayLog}`)), 90_000);
    const read = (chunk) => {
      gatewayLog += chunk;
      const match = /MCP endpoint:\s+(http:\/\/\S+)/.exec(gatewayLog);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    gateway.stdout.setEncoding('utf8').on('data', read);
    gateway.stderr.setEncoding('utf8').on('data', read);
    gateway.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${gatewayLog}`)));
  });
});

after(() => {
  gateway?.kill('SIGTERM');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A fresh HOME with a project folder in it; the host runs from the project folder. */
function home(name) {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'project'), { recursive: true });
  return { home: dir, project: join(dir, 'project') };
}

/** Runs `command ...args` in `cwd` with only PATH and `env`; resolves with its stdout and stderr. */
async function host(command, args, cwd, env) {
  try {
    return await run(command, args, {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      timeout: 180_000,
      maxBuffer: 4 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(
      `${command} ${args.join(' ')} failed: ${error.message}\n${error.stdout}\n${error.stderr}`,
    );
  }
}

/** `name → status` from `mcp list` output lines shaped `<mark?> name: <target> - <status>`. */
function statuses(output, line) {
  const found = new Map();
  for (const text of output.split('\n')) {
    const match = line.exec(text.trim());
    if (match) found.set(match[1], match[2]);
  }
  return found;
}

const stdioCommand = () => [process.execPath, cli, 'serve', '--stdio', '--config', config];

describe('Claude Code: claude mcp add, then claude mcp list', { timeout: 300_000 }, () => {
  const claude = process.env.HOSTS_CLAUDE;
  it('reports serve --stdio and serve --http connected, a closed port not', async () => {
    const { home: dir, project } = home('claude');
    // Its own switches for a run with no network: no update check, no telemetry.
    const env = { HOME: dir, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    await host(claude, ['mcp', 'add', '-s', 'user', 'mcptools', '--', ...stdioCommand()], project, env);
    await host(
      claude,
      ['mcp', 'add', '-s', 'user', '--transport', 'http', 'mcptools-http', url],
      project,
      env,
    );
    await host(claude, ['mcp', 'add', '-s', 'user', '--transport', 'http', 'closed', deadUrl], project, env);
    const { stdout } = await host(claude, ['mcp', 'list'], project, env);
    process.stdout.write(`# claude mcp list:\n${stdout.replace(/^/gm, '#   ')}\n`);
    const found = statuses(stdout, /^(\S+): .* - (.+)$/);
    assert.match(found.get('mcptools') ?? 'missing', /Connected$/, stdout);
    assert.match(found.get('mcptools-http') ?? 'missing', /Connected$/, stdout);
    assert.match(found.get('closed') ?? 'missing', /Failed/, stdout);
    assert.match(gatewayLog, /client claude-code \S+ connected/);
  });
});

describe('Gemini CLI: settings.json, a trusted folder, then gemini mcp list', { timeout: 300_000 }, () => {
  const gemini = process.env.HOSTS_GEMINI;
  it('reports serve --stdio and serve --http connected, a closed port not', async () => {
    const { home: dir, project } = home('gemini');
    mkdirSync(join(dir, '.gemini'));
    // `gemini mcp list` gives a server 5 s (no `timeout` in its entry): `serve --stdio` answers
    // `initialize` at once and only lists wait for its own servers to connect.
    const mcpServers = {
      mcptools: { command: process.execPath, args: stdioCommand().slice(1) },
      // …even when its own server takes longer than that to start.
      'mcptools-slow': { command: process.execPath, args: [cli, 'serve', '--stdio', '--config', slowConfig] },
      'mcptools-http': { httpUrl: url },
      closed: { httpUrl: deadUrl },
    };
    writeFileSync(join(dir, '.gemini', 'settings.json'), JSON.stringify({ mcpServers }, null, 2));
    // An untrusted folder disables every MCP server, the user's own included.
    writeFileSync(join(dir, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    const { stdout, stderr } = await host(process.execPath, [gemini, 'mcp', 'list'], project, { HOME: dir });
    const output = `${stdout}${stderr}`;
    process.stdout.write(`# gemini mcp list:\n${output.replace(/^/gm, '#   ')}\n`);
    const found = statuses(output, /^\S+ (\S+): .* - (\S+)$/);
    assert.equal(found.get('mcptools'), 'Connected', output);
    assert.equal(found.get('mcptools-slow'), 'Connected', output);
    assert.equal(found.get('mcptools-http'), 'Connected', output);
    assert.equal(found.get('closed'), 'Disconnected', output);
    assert.match(gatewayLog, /client mcp-test-client \S+ connected/);
  });
});
