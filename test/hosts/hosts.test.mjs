// Run by run-hosts.mjs (`npm run test:hosts`). Each host's own MCP health check, as a user runs
// it after adding mcptools exactly the way docs/hosts/ says: the page's `claude mcp add` lines
// and Gemini CLI's `settings.json` blocks are read from the pages and run as written (the
// placeholders `/absolute/path/mcptools.json` and `http://127.0.0.1:8808/mcp` replaced by this
// run's), with the `mcptools` command that `npm install -g .` of this clone puts on PATH.
// `claude mcp list` and `gemini mcp list` then report each entry. A third entry at a closed port
// shows each check can fail. Then `mcptools connect claude-code` / `connect gemini-cli` write the
// hosts' files themselves and the same checks report mcptools connected. Every host runs in a HOME
// of its own: no account, no network.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { docBlocks } from '../docs/doc-blocks.ts';

const repo = process.env.HOSTS_REPO;
const run = promisify(execFile);
const cli = join(repo, 'dist', 'cli', 'main.cjs');
const tsx = pathToFileURL(createRequire(join(repo, 'package.json')).resolve('tsx')).href;
/** The placeholders the pages write, replaced by this run's config file and URL. */
const PAGE_CONFIG = '/absolute/path/mcptools.json';
const PAGE_URL = 'http://127.0.0.1:8808/mcp';

let scratch;
let config;
// A server that sleeps 8 s before it answers (longer than Gemini CLI's 5 s for `initialize`).
let slowConfig;
let gateway;
let gatewayLog = '';
let url;
/** A second `serve --http` that wants a bearer token, and the token. */
let tokenGateway;
let tokenUrl;
const TOKEN = 'hosts-connect-token-3b7e';
let deadUrl;
/** PATH with the `mcptools` that `npm install -g .` of this clone installs, first. */
let path;

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
  // The README's way to get the command from a clone, into a prefix of this run's own.
  const prefix = join(scratch, 'global');
  await run('npm', ['install', '-g', repo, '--prefix', prefix, '--no-audit', '--no-fund'], {
    timeout: 180_000,
  });
  path = `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`;
  ({ child: gateway, url } = await startServe({}, (chunk) => {
    gatewayLog += chunk;
  }));
  ({ child: tokenGateway, url: tokenUrl } = await startServe({ MCPTOOLS_TOKEN: TOKEN }, () => {}));
});

/** `serve --http` on a free loopback port with `env` added; resolves once it prints its endpoint. */
function startServe(env, onOutput) {
  const child = spawn(process.execPath, [cli, 'serve', '--http', '127.0.0.1:0', '--config', config], {
    cwd: scratch,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${log}`)), 90_000);
    const read = (chunk) => {
      log += chunk;
      onOutput(chunk);
      const match = /MCP endpoint:\s+(http:\/\/\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${log}`)));
  });
}

after(() => {
  tokenGateway?.kill('SIGTERM');
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
      env: { PATH: path, ...env },
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

/** A page's text with its placeholders replaced by this run's config file and gateway URL. */
const asRun = (text) => text.replaceAll(PAGE_CONFIG, config).replaceAll(PAGE_URL, url);

/** The lines of `page`'s shell blocks that start with `prefix`, as this run runs them. */
function pageCommands(page, prefix) {
  const lines = docBlocks(repo, page)
    .filter((block) => block.language === 'sh')
    .flatMap((block) => block.text.split('\n'))
    .filter((line) => line.startsWith(prefix));
  assert.ok(lines.length > 0, `${page} has no line starting with ${prefix}`);
  return lines.map((line) => asRun(line.trim()).split(/\s+/));
}

/** The `mcpServers` of every JSON block of `page`, merged, as this run runs them. */
function pageServers(page) {
  const servers = {};
  for (const block of docBlocks(repo, page).filter((candidate) => candidate.language === 'json'))
    for (const [name, entry] of Object.entries(JSON.parse(asRun(block.text)).mcpServers ?? {})) {
      assert.ok(!(name in servers), `${page}: two entries named ${name}`);
      servers[name] = entry;
    }
  return servers;
}

describe('Claude Code: claude mcp add, then claude mcp list', { timeout: 300_000 }, () => {
  const claude = process.env.HOSTS_CLAUDE;
  it('reports serve --stdio and serve --http connected, a closed port not', async () => {
    const { home: dir, project } = home('claude');
    // Its own switches for a run with no network: no update check, no telemetry.
    const env = { HOME: dir, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    // The page's lines as written, in the user scope (`-s user`) of this HOME.
    const added = [];
    for (const [, , , ...rest] of pageCommands('docs/hosts/claude-code.md', 'claude mcp add ')) {
      await host(claude, ['mcp', 'add', '-s', 'user', ...rest], project, env);
      added.push(rest.find((word) => !word.startsWith('-') && word !== 'http'));
    }
    assert.deepEqual(added.sort(), ['mcptools', 'mcptools-stdio']);
    await host(claude, ['mcp', 'add', '-s', 'user', '--transport', 'http', 'closed', deadUrl], project, env);
    const { stdout } = await host(claude, ['mcp', 'list'], project, env);
    process.stdout.write(`# claude mcp list:\n${stdout.replace(/^/gm, '#   ')}\n`);
    const found = statuses(stdout, /^(\S+): .* - (.+)$/);
    assert.match(found.get('mcptools') ?? 'missing', /Connected$/, stdout);
    assert.match(found.get('mcptools-stdio') ?? 'missing', /Connected$/, stdout);
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
      ...pageServers('docs/hosts/gemini-cli.md'),
      // …even when its own server takes longer than that to start.
      'mcptools-slow': { command: 'mcptools', args: ['serve', '--stdio', '--config', slowConfig] },
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
    assert.equal(found.get('mcptools-stdio'), 'Connected', output);
    assert.equal(found.get('mcptools-slow'), 'Connected', output);
    assert.equal(found.get('closed'), 'Disconnected', output);
    assert.match(gatewayLog, /client mcp-test-client \S+ connected/);
  });
});

describe('mcptools connect, then the host’s own mcp list', { timeout: 300_000 }, () => {
  // The `mcptools` on PATH writes the host's file itself (its absolute command, --config this
  // run's configuration), over stdio and to a `serve --http` that wants a token: the entry names
  // the token's variable, the host resolves it (without it set, that entry fails).
  const connect = (dir, project, host, ...args) =>
    run('mcptools', ['connect', host, '--config', config, ...args], {
      cwd: project,
      env: { PATH: path, HOME: dir },
      timeout: 60_000,
    });

  it('Claude Code: claude mcp list reports both entries connected, and none after --undo', async () => {
    const claude = process.env.HOSTS_CLAUDE;
    const { home: dir, project } = home('claude-connect');
    const env = { HOME: dir, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    await connect(dir, project, 'claude-code');
    // To the gateway that wants a token: the entry names MCPTOOLS_TOKEN, Claude Code expands it.
    await connect(dir, project, 'claude-code', '--http', tokenUrl, '--token-env', 'MCPTOOLS_TOKEN');
    assert.doesNotMatch(readFileSync(join(dir, '.claude.json'), 'utf8'), new RegExp(TOKEN));
    const without = await host(claude, ['mcp', 'list'], project, env);
    assert.doesNotMatch(
      statuses(without.stdout, /^(\S+): .* - (.+)$/).get('mcptools') ?? 'missing',
      /Connected$/,
      without.stdout,
    );
    const { stdout } = await host(claude, ['mcp', 'list'], project, { ...env, MCPTOOLS_TOKEN: TOKEN });
    process.stdout.write(`# claude mcp list after mcptools connect:\n${stdout.replace(/^/gm, '#   ')}\n`);
    const found = statuses(stdout, /^(\S+): .* - (.+)$/);
    assert.match(found.get('mcptools-stdio') ?? 'missing', /Connected$/, stdout);
    assert.match(found.get('mcptools') ?? 'missing', /Connected$/, stdout);
    // Claude Code rewrote ~/.claude.json meanwhile: undo takes back mcptools' entries only.
    const undone = await run('mcptools', ['connect', 'claude-code', '--undo'], {
      cwd: project,
      env: { PATH: path, HOME: dir },
    });
    process.stdout.write(`# mcptools connect claude-code --undo:\n${undone.stdout.replace(/^/gm, '#   ')}\n`);
    assert.match(undone.stdout, /changed since mcptools wrote it|is back as it was/);
    const after = await host(claude, ['mcp', 'list'], project, env);
    assert.doesNotMatch(after.stdout, /^mcptools/m, after.stdout);
  });

  it('Gemini CLI: gemini mcp list reports both entries connected', async () => {
    const gemini = process.env.HOSTS_GEMINI;
    const { home: dir, project } = home('gemini-connect');
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    await connect(dir, project, 'gemini-cli');
    await connect(dir, project, 'gemini-cli', '--http', tokenUrl, '--token-env', 'MCPTOOLS_TOKEN');
    assert.doesNotMatch(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8'), new RegExp(TOKEN));
    const without = await host(process.execPath, [gemini, 'mcp', 'list'], project, { HOME: dir });
    const withoutOutput = `${without.stdout}${without.stderr}`;
    assert.equal(
      statuses(withoutOutput, /^\S+ (\S+): .* - (\S+)$/).get('mcptools'),
      'Disconnected',
      withoutOutput,
    );
    const { stdout, stderr } = await host(process.execPath, [gemini, 'mcp', 'list'], project, {
      HOME: dir,
      MCPTOOLS_TOKEN: TOKEN,
    });
    const output = `${stdout}${stderr}`;
    process.stdout.write(`# gemini mcp list after mcptools connect:\n${output.replace(/^/gm, '#   ')}\n`);
    const found = statuses(output, /^\S+ (\S+): .* - (\S+)$/);
    assert.equal(found.get('mcptools-stdio'), 'Connected', output);
    assert.equal(found.get('mcptools'), 'Connected', output);
  });
});
