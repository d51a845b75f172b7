import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childPids, survivors } from '../cli/cli-process.js';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const folder = mkdtempSync(join(tmpdir(), 'mcptools-packed-'));
const project = join(folder, 'project');
const home = join(folder, 'home');
// No configuration anywhere: an empty home and project, and the state directory inside the home.
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: home,
  MCPTOOLS_ERA_CACHE: 'off',
  // The npm cache stays the user's, so npx and the install reuse what this machine downloaded.
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? home, '.npm'),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};
const bin = () => join(project, 'node_modules', '.bin', 'mcptools');

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', folder], { cwd: repo });
  const tarball = join(folder, stdout.trim().split('\n').at(-1) as string);
  writeFileSync(join(project, 'package.json'), '{"name":"try-mcptools","private":true}\n');
  await run('npm', ['install', tarball], { cwd: project, env, timeout: 240_000 });
}, 300_000);

afterAll(() => rmSync(folder, { recursive: true, force: true, maxRetries: 5 }));

describe('mcptools installed from its packed tarball into an empty folder', () => {
  it('holds dist, the README, the licence, the changelog and package.json, nothing else', () => {
    const installed = readdirSync(join(project, 'node_modules', 'mcptools')).sort();
    expect(installed).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'package.json']);
  });

  it('resolves the root and every subpath of its exports from the installed package', async () => {
    const exports = (
      JSON.parse(readFileSync(join(project, 'node_modules', 'mcptools', 'package.json'), 'utf8')) as {
        exports: object;
      }
    ).exports;
    const entries = Object.keys(exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => `mcptools${subpath.slice(1)}`);
    expect(entries).toContain('mcptools/gateway');
    const script = [
      'const names = {};',
      `for (const entry of ${JSON.stringify(entries)})`,
      '  names[entry] = Object.keys(await import(entry)).length;',
      'console.log(JSON.stringify(names));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      env,
      timeout: 60_000,
    });
    const counts = JSON.parse(stdout) as Record<string, number>;
    // `mcptools/mcp` holds types only: it resolves, and has no value to export.
    expect(
      Object.entries(counts).filter(([entry, count]) => count === 0 && entry !== 'mcptools/mcp'),
    ).toEqual([]);
    expect(Object.keys(counts)).toEqual(entries);
  });

  it('runs the demo with no configuration (the default servers through npx, said once)', async () => {
    const { stdout, stderr } = await run(bin(), ['demo'], { cwd: project, env, timeout: 240_000 });
    expect(stdout).toContain('everything__echo');
    expect(stdout).toMatch(/connected/);
    expect(stderr.match(/running through npx -y/g)).toHaveLength(1);
  }, 300_000);

  it('lists the servers and calls a tool with key=value arguments', async () => {
    const servers = await run(bin(), ['servers', '--json'], { cwd: project, env, timeout: 120_000 });
    const { servers: statuses } = JSON.parse(servers.stdout) as {
      servers: { name: string; state: string }[];
    };
    expect(statuses.map((status) => [status.name, status.state])).toEqual([
      ['everything', 'connected'],
      ['files', 'connected'],
      ['memory', 'connected'],
    ]);
    const call = await run(bin(), ['call', 'everything__get-sum', 'a=2', 'b=3'], {
      cwd: project,
      env,
      timeout: 120_000,
    });
    expect(call.stdout).toContain('5');
  }, 300_000);

  it('serves them over HTTP: tools/list answers, and no process is left after SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(bin(), ['serve', '--http', '127.0.0.1:0'], { cwd: project, env });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise((done) => child.on('exit', done));
    try {
      const url = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no URL in: ${stdout}`)), 120_000);
        child.stdout.on('data', () => {
          const match = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            done(match[0]);
          }
        });
      });
      const client = new Client({ name: 'packed', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['everything__echo', 'memory__read_graph']),
      );
      await client.close();
      const children = childPids(child.pid as number);
      expect(children.length).toBeGreaterThanOrEqual(3);
      child.kill('SIGTERM');
      await exited;
      expect(await survivors(children)).toEqual([]);
    } finally {
      // SIGTERM, not SIGKILL: the gateway must end its servers, which the orphan check counts.
      child.kill('SIGTERM');
      await exited;
    }
  }, 300_000);
});
