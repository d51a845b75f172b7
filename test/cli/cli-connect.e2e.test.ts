// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${MCPTOOLS_TOKEN} is the reference written into a host file, not a template.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { cliBin, cliScratch, runCli } from './cli-process.js';

/*
 * `mcptools connect` and `import` through the built CLI, in a scratch home: the entry written into
 * a host's file starts this CLI serving the imported servers, `--undo` gives the files back byte
 * for byte, and a token given by its variable never reaches a file or the output.
 */
const TOKEN = 'canary-connect-token-81d2';
let dir: string;
let env: NodeJS.ProcessEnv;
let home: string;

beforeAll(() => {
  ({ dir, env } = cliScratch('mcptools-cli-connect-'));
  home = env.HOME!;
  env = { ...env, XDG_STATE_HOME: join(home, '.local', 'state'), MCPTOOLS_TOKEN: undefined };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mcptools import --replace, then the host starts the entry it got', () => {
  it('serves the imported servers over stdio, and import --undo gives both files back', async () => {
    const desktopFile = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    const echo = fixtureCommand('echo');
    const before = `${JSON.stringify({ mcpServers: { echo: { command: echo.command, args: echo.args } }, theme: 'dark' }, null, 2)}\n`;
    writeFileSync(desktopFile, before);
    const configPath = join(home, '.config', 'mcptools', 'mcptools.json');

    const imported = await runCli(['import', 'claude-desktop', '--replace'], dir, env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Claude Desktop: imported echo into ${configPath}`);
    const host = JSON.parse(readFileSync(desktopFile, 'utf8'));
    expect(Object.keys(host.mcpServers)).toEqual(['mcptools-stdio']);
    const entry = host.mcpServers['mcptools-stdio'];
    // The absolute command of the CLI that ran, and the user-level configuration.
    expect(entry).toEqual({
      command: process.execPath,
      args: [realpathSync(cliBin), 'serve', '--stdio', '--config', configPath],
    });

    // What the host does with the entry: start it and list the tools.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: env as Record<string, string>,
      cwd: '/',
      stderr: 'pipe',
    });
    const client = new Client({ name: 'host-like-client', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo__echo');
    } finally {
      await client.close();
    }

    const listed = await runCli(['connect', '--list', '--json'], dir, env);
    const desktop = JSON.parse(listed.stdout).hosts.find(
      (row: { host: string }) => row.host === 'claude-desktop',
    );
    expect(desktop).toMatchObject({ installed: true, mcptools: ['mcptools-stdio'] });

    const undone = await runCli(['import', 'claude-desktop', '--undo'], dir, env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(readFileSync(desktopFile, 'utf8')).toBe(before);
    expect(existsSync(configPath)).toBe(false);
  });
});

describe('mcptools connect <host> --http', () => {
  it('writes the token as a reference to its variable, never the token, in the file or the output', async () => {
    const withToken = { ...env, MCPTOOLS_TOKEN: TOKEN };
    const run = await runCli(
      ['connect', 'gemini-cli', '--http', 'http://127.0.0.1:8808/mcp'],
      dir,
      withToken,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('with the token from $MCPTOOLS_TOKEN');
    const text = readFileSync(join(home, '.gemini', 'settings.json'), 'utf8');
    expect(JSON.parse(text).mcpServers.mcptools).toEqual({
      httpUrl: 'http://127.0.0.1:8808/mcp',
      headers: { Authorization: 'Bearer ${MCPTOOLS_TOKEN}' },
    });
    expect(`${text}${run.stdout}${run.stderr}`).not.toContain(TOKEN);
    const undone = await runCli(['connect', 'gemini-cli', '--undo'], dir, env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(existsSync(join(home, '.gemini'))).toBe(false);
  });

  it('refuses an unknown host, naming the known ones, and an undo with nothing to undo', async () => {
    const unknown = await runCli(['connect', 'notepad'], dir, env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown host "notepad": use one of claude-code, claude-desktop, cursor/);
    const nothing = await runCli(['connect', 'cursor', '--undo'], dir, env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/nothing to undo for Cursor/);
  });
});
