import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVER_PACKAGES,
  defaultConfig,
  defaultWorkspaceDir,
} from '../../src/cli/demo/default-config.js';
import { cliBin } from './cli-process.js';

const temp = mkdtempSync(join(tmpdir(), 'mcptools-default-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('the built-in default configuration', () => {
  it('runs the servers at the versions the package is tested with (its devDependencies)', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    for (const spec of Object.values(DEFAULT_SERVER_PACKAGES)) {
      const at = spec.lastIndexOf('@');
      expect(manifest.devDependencies[spec.slice(0, at)], spec).toBe(`^${spec.slice(at + 1)}`);
    }
  });

  it('keeps its workspace under the state directory, never the working folder', () => {
    const dir = defaultWorkspaceDir(true, { XDG_STATE_HOME: join(temp, 'state') });
    expect(dir).toBe(join(temp, 'state', 'mcptools', 'workspace'));
    expect(statSync(dir).isDirectory()).toBe(true);
    const { servers, workspaceDir } = defaultConfig({ workspaceDir: dir });
    expect(workspaceDir).toBe(dir);
    expect(servers.files?.type === 'stdio' && servers.files.args?.at(-1)).toBe(dir);
    expect(servers.memory?.type === 'stdio' && servers.memory.env?.MEMORY_FILE_PATH).toBe(
      join(dir, 'memory.jsonl'),
    );
  });

  it('moves the folder of its old name (sandbox) to the new one, memory file and all', () => {
    const state = join(temp, 'migrate');
    const legacy = join(state, 'mcptools', 'sandbox');
    mkdirSync(legacy, { recursive: true });
    writeFileSync(join(legacy, 'memory.jsonl'), '{"type":"entity"}\n');
    // Only shown: nothing moves, the old folder is the one in use.
    expect(defaultWorkspaceDir(false, { XDG_STATE_HOME: state })).toBe(legacy);
    expect(existsSync(legacy)).toBe(true);
    const dir = defaultWorkspaceDir(true, { XDG_STATE_HOME: state });
    expect(dir).toBe(join(state, 'mcptools', 'workspace'));
    expect(readFileSync(join(dir, 'memory.jsonl'), 'utf8')).toBe('{"type":"entity"}\n');
    expect(existsSync(legacy)).toBe(false);
  });

  it('leaves an old folder alone when the new one exists already', () => {
    const state = join(temp, 'both');
    mkdirSync(join(state, 'mcptools', 'sandbox'), { recursive: true });
    mkdirSync(join(state, 'mcptools', 'workspace'), { recursive: true });
    expect(defaultWorkspaceDir(true, { XDG_STATE_HOME: state })).toBe(join(state, 'mcptools', 'workspace'));
    expect(existsSync(join(state, 'mcptools', 'sandbox'))).toBe(true);
  });

  it('falls back to the temp folder when the state directory cannot be written', () => {
    const file = join(temp, 'not-a-folder');
    writeFileSync(file, '');
    const dir = defaultWorkspaceDir(true, { XDG_STATE_HOME: file });
    expect(dir.startsWith(tmpdir())).toBe(true);
    expect(dir).not.toContain(file);
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('creates nothing when only shown', () => {
    const dir = defaultWorkspaceDir(false, { XDG_STATE_HOME: join(temp, 'shown') });
    expect(() => statSync(dir)).toThrow();
  });

  it('spawns the servers from the local install when it has them', () => {
    let told: string[] | undefined;
    const config = defaultConfig({ workspaceDir: temp, onNpx: (packages) => (told = packages) });
    expect(told).toBeUndefined();
    for (const server of Object.values(config.servers)) {
      expect(server.type === 'stdio' && server.command).toBe(process.execPath);
    }
  });
});

/** `setpriv` to an ordinary user when this runs as root (as CI does), else nothing. */
function asOrdinaryUser(): { command: string; prefix: string[] } {
  if (process.getuid?.() !== 0) return { command: process.execPath, prefix: [] };
  try {
    execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
  } catch {
    return { command: process.execPath, prefix: [] };
  }
  return {
    command: 'setpriv',
    prefix: ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath],
  };
}

describe('serve --stdio with the built-in default, started from / by an ordinary user', () => {
  it('answers initialize and serves the default servers (nothing is written to /)', async () => {
    const { command, prefix } = asOrdinaryUser();
    const transport = new StdioClientTransport({
      command,
      args: [...prefix, cliBin, 'serve', '--stdio'],
      cwd: '/',
      // A home that does not exist, as for a system user: no config file, no state directory.
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', MCPTOOLS_ERA_CACHE: 'off' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'from-root', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('everything__echo');
      expect(names).toContain('files__list_directory');
      const listed = await client.callTool({ name: 'files__list_allowed_directories', arguments: {} });
      expect(JSON.stringify(listed.content)).toContain(tmpdir());
      expect(() => statSync('/.sandbox')).toThrow();
    } finally {
      await client.close();
    }
  }, 60_000);
});
