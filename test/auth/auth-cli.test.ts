import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin as bin } from '../cli/cli-process.js';
import {
  followAuthorizationUrl,
  type OAuthFixture,
  startOAuthFixture,
} from '../fixtures/oauth/oauth-fixture.js';

const canary = 'CLICANARYz9';

let fixture: OAuthFixture;
let dir: string;
let config: string;
let env: NodeJS.ProcessEnv;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: dir, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  fixture = await startOAuthFixture({ canary });
  dir = mkdtempSync(join(tmpdir(), 'mcptools-auth-cli-'));
  env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), DISPLAY: '', WAYLAND_DISPLAY: '' };
  config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({ servers: { remote: { type: 'streamable-http', url: fixture.mcpUrl } } }),
  );
});
afterAll(async () => {
  await fixture.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('mcptools auth (built binary)', () => {
  const outputs: string[] = [];

  it('servers shows auth_required with the command before any sign-in', async () => {
    const result = await run(['servers', '--config', config, '--json']);
    outputs.push(result.stdout, result.stderr);
    const parsed = JSON.parse(result.stdout) as {
      servers: { state: string; lastError?: { message: string } }[];
    };
    expect(parsed.servers[0]?.state).toBe('auth_required');
    expect(parsed.servers[0]?.lastError?.message).toContain('mcptools auth remote');
  });

  it('auth SERVER prints the URL without a browser, and finishes when the browser step follows it', async () => {
    const child = spawn(process.execPath, [bin, 'auth', 'remote', '--config', config, '--no-browser'], {
      cwd: dir,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        const match = /https?:\/\/\S+\/authorize\S*/.exec(stderr);
        if (match) resolve(match[0]);
      });
      child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    await followAuthorizationUrl(new URL(url));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    outputs.push(stdout, stderr);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Authorized "remote" \(scope: read\), token expires/);
    const vault = join(dir, 'config', 'mcptools', 'oauth-vault.json');
    expect(await readFile(vault, 'utf8')).toContain(canary);
  }, 60_000);

  it('auth --list shows the server, scope and expiry and never a token; servers connects', async () => {
    const list = await run(['auth', '--list', '--config', config, '--json']);
    outputs.push(list.stdout, list.stderr);
    const parsed = JSON.parse(list.stdout) as {
      servers: { servers: string[]; scope: string; refreshable: boolean }[];
    };
    expect(parsed.servers).toEqual([
      expect.objectContaining({ servers: ['remote'], scope: 'read', refreshable: true, authorized: true }),
    ]);
    const text = await run(['auth', '--list', '--config', config]);
    outputs.push(text.stdout, text.stderr);
    expect(text.stdout).toContain('remote');
    const servers = await run(['servers', '--config', config]);
    outputs.push(servers.stdout, servers.stderr);
    expect(servers.stdout).toMatch(/remote\s+connected/);
  });

  it('auth --logout forgets the server; unknown names are usage errors', async () => {
    const logout = await run(['auth', '--logout', 'remote', '--config', config]);
    outputs.push(logout.stdout, logout.stderr);
    expect(logout.code).toBe(0);
    const list = await run(['auth', '--list', '--config', config, '--json']);
    expect((JSON.parse(list.stdout) as { servers: unknown[] }).servers).toEqual([]);
    const unknown = await run(['auth', 'nope', '--config', config]);
    outputs.push(unknown.stdout, unknown.stderr);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no server "nope"');
  });

  it('no token appeared in any output', () => {
    expect(outputs.length).toBeGreaterThan(8);
    expect(outputs.join('\n')).not.toContain(canary);
  });
});
