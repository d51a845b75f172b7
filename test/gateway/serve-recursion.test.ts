import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { cliBin, runCli } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  alive,
  byName,
  callEcho,
  descendants,
  freePort,
  HANDFUL,
  type HealthRow,
  health,
  peakDescendants,
  scratchFolder,
  startServe,
  toolNames,
} from './recursion-processes.js';

// `serve` must never connect to itself, directly or through a chain of gateways.
// Every process here is real: the built CLI, the echo fixture, counted from /proc.

const { root, folder } = scratchFolder('mcptools-recursion-');
const echo = fixtureCommand('echo');

const SELF = /^skipped: this is mcptools itself/;

describe('a project whose .mcp.json lists mcptools itself', async () => {
  const port = await freePort();
  const project = folder('project', {
    '.mcp.json': {
      mcpServers: {
        echo,
        direct: { command: process.execPath, args: [cliBin, 'serve', '--stdio'] },
        npx: { command: 'npx', args: ['-y', 'mcptools', 'serve', '--stdio'] },
        wrapped: { command: 'sh', args: ['-c', `exec node '${cliBin}' serve --stdio`] },
        url: { type: 'http', url: `http://localhost:${port}/mcp` },
        remote: { command: 'npx', args: ['-y', 'mcp-remote', `http://127.0.0.1:${port}/mcp`] },
      },
    },
  });
  // `npx mcptools` resolves to this build, as it would in a project that installed it.
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(cliBin, join(project, 'node_modules', '.bin', 'mcptools'));

  it('serve --http stays within a handful of processes, serves echo, reports the five self entries, leaves nothing behind', async () => {
    const served = await startServe(project, port);
    const peak = await peakDescendants(served.pid, 3000);
    const seen = descendants(served.pid);
    try {
      expect(peak).toBeLessThanOrEqual(HANDFUL);
      const { status, servers } = await health(served.url);
      expect(status).toBe('ok');
      const rows = byName(servers);
      expect(rows.get('echo')?.state).toBe('connected');
      for (const name of ['direct', 'npx', 'wrapped', 'url', 'remote']) {
        expect(rows.get(name)?.state, name).toBe('skipped');
        expect(rows.get(name)?.lastError?.message, name).toMatch(SELF);
      }
      expect(rows.get('remote')?.lastError?.message).toContain('mcp-remote');
      const tools = await toolNames(served.url);
      expect(tools).toContain('echo__echo');
      expect(tools.filter((tool) => !tool.startsWith('echo__'))).toEqual([]);
      expect(await callEcho(served.url, 'echo__echo', 'hi')).toBe('hi');
      const page = await (await fetch(new URL('/', served.url))).text();
      expect(page).toContain('skipped: this is mcptools itself');
      // Reported once: the banner's table and nothing retried in the log.
      expect(served.stdout()).toMatch(/direct\s+skipped/);
      expect(served.stderr()).not.toMatch(/direct.*(reconnect|attempt)/);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    await waitUntil(() => seen.every((pid) => !alive(pid)), 'until seen.every((pid) => !alive(pid))', 5000);
  });

  it('serve --stdio from there serves echo, skips the stdio self entries, leaves nothing behind', async () => {
    // Over stdio nothing listens on `url`'s port, so `url` and `remote` are no longer this
    // process: `url` fails fast (nothing there); `remote` is left out (npx would fetch mcp-remote).
    const stdioProject = folder('stdio-project', {
      '.mcp.json': {
        mcpServers: {
          echo,
          direct: { command: process.execPath, args: [cliBin, 'serve', '--stdio'] },
          npx: { command: 'npx', args: ['-y', 'mcptools', 'serve', '--stdio'] },
          wrapped: { command: 'sh', args: ['-c', `exec node '${cliBin}' serve --stdio`] },
          url: { type: 'http', url: `http://localhost:${port}/mcp` },
        },
      },
    });
    mkdirSync(join(stdioProject, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(cliBin, join(stdioProject, 'node_modules', '.bin', 'mcptools'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, 'serve', '--stdio'],
      env: SERVE_BOX_OFF,
      cwd: stdioProject,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'recursion-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('echo__echo');
      expect(tools.some((tool) => /^(direct|npx|wrapped)__/.test(tool))).toBe(false);
      expect(await peakDescendants(pid, 2000)).toBeLessThanOrEqual(HANDFUL);
    } finally {
      const seen = [pid, ...descendants(pid)];
      await client.close();
      await waitUntil(
        () => seen.every((each) => !alive(each)),
        'until seen.every((each) => !alive(each))',
        10_000,
      );
    }
  });

  it('mcptools servers and doctor show the self entries as skipped and exit 0', async () => {
    const quiet = folder('servers', {
      '.mcp.json': {
        mcpServers: {
          echo,
          direct: { command: process.execPath, args: [cliBin, 'serve', '--stdio'] },
          wrapped: { command: 'sh', args: ['-c', `node '${cliBin}' serve --stdio`] },
        },
      },
    });
    const run = await runCli(['servers', '--json'], quiet);
    expect(run.code, run.stderr).toBe(0);
    const rows = byName(JSON.parse(run.stdout).servers as HealthRow[]);
    expect(rows.get('echo')?.state).toBe('connected');
    expect(rows.get('direct')?.state).toBe('skipped');
    expect(rows.get('wrapped')?.lastError?.message).toMatch(SELF);
    // doctor: reported with its reason, no failure either.
    const doctor = await runCli(['doctor', '--json'], quiet);
    expect(doctor.code, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout) as { ok: boolean; servers: { name: string; state: string }[] };
    expect(report.ok).toBe(true);
    expect(report.servers.find((server) => server.name === 'direct')?.state).toBe('skipped');
  });
});

describe('Claude Desktop’s file with the banner’s mcp-remote line', async () => {
  const port = await freePort();
  const home = folder('home', {
    '.config/Claude/claude_desktop_config.json': {
      mcpServers: {
        echo,
        mcptools: { command: 'npx', args: ['-y', 'mcp-remote', `http://127.0.0.1:${port}/mcp`] },
      },
    },
  });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  const claudeFile = join(home, '.config', 'Claude', 'claude_desktop_config.json');

  it('serve without --config does not read it, and says so', async () => {
    const empty = folder('empty', {});
    const served = await startServe(empty, port, [], env);
    try {
      expect(served.stderr()).toContain('serve does not read');
      expect(served.stderr()).toContain('claude_desktop_config.json');
      const names = (await health(served.url)).servers.map((row) => row.name);
      expect(names).not.toContain('mcptools');
      expect(names).not.toContain('echo');
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('serve --config on it skips the mcp-remote line and serves echo', async () => {
    const served = await startServe(root, port, ['--config', claudeFile], env);
    try {
      expect(await peakDescendants(served.pid, 2000)).toBeLessThanOrEqual(HANDFUL);
      const rows = byName((await health(served.url)).servers);
      expect(rows.get('echo')?.state).toBe('connected');
      expect(rows.get('mcptools')?.state).toBe('skipped');
      expect(rows.get('mcptools')?.lastError?.message).toBe(
        "skipped: this is mcptools itself (mcp-remote to this gateway's own URL)",
      );
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
