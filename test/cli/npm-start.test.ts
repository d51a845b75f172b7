import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { boxUnavailable } from '../boxes/box-availability.js';
import { childPids, survivors } from './cli-process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The command `npm start` runs after its build step (the suite has built already, and a second
 * build would rewrite dist/ under the other CLI tests).
 */
function startCommand(): string {
  const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const [build, command] = script.split(' && ');
  expect(build).toBe('npm run build --silent');
  return command!.replace('node dist/', `node ${join(root, 'dist')}/`);
}

const boxes = boxUnavailable();
if (boxes !== undefined)
  console.warn(`test/cli/npm-start.test.ts: the default's servers run unboxed: ${boxes}`);

/** This process's environment without the suite's `MCPTOOLS_SERVE_SANDBOX=off`. */
function withoutServeBoxOff(): NodeJS.ProcessEnv {
  const { MCPTOOLS_SERVE_SANDBOX: _off, ...env } = process.env;
  return env;
}

describe('npm start (the main job)', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcptools-npm-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the built-in default over HTTP, each server boxed, prints where, answers tools/list, and leaves no child on Ctrl-C', async () => {
    // An empty directory: no configuration file is found, so the built-in default runs.
    const child = spawn('sh', ['-c', `exec ${startCommand()}`], {
      cwd: dir,
      // Serve's default box on, as for a user (the suite turns it off for other tests).
      env: { ...withoutServeBoxOff(), MCPTOOLS_PORT: '0', XDG_CONFIG_HOME: dir, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        const match = /MCP endpoint:\s+(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stdout);
        if (match) return resolve(match[1]!);
        if (Date.now() - started > 90_000) return reject(new Error(`no URL printed: ${stdout}\n${stderr}`));
        setTimeout(check, 100);
      };
      check();
    });
    expect(stdout).toMatch(/everything\s+connected/);
    expect(stdout).toContain('Status page:');
    expect(stdout).toContain(`claude mcp add --transport http mcptools ${url}`);
    expect(stderr).toContain('built-in default');

    const client = new Client({ name: 'npm-start-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['everything__echo', 'files__read_text_file', 'word_count']),
    );
    const result = await client.callTool({ name: 'everything__echo', arguments: { message: 'hi there' } });
    expect(JSON.stringify(result.content)).toContain('hi there');
    if (boxes === undefined) {
      // Each server in its box: a private home, and its folder written through its mount.
      const env = await client.callTool({ name: 'everything__get-env', arguments: {} });
      expect(JSON.stringify(env.content)).toContain('/tmp/home');
      const workspace = join(dir, '.local', 'state', 'mcptools', 'workspace');
      const note = join(workspace, 'note.txt');
      const written = await client.callTool({
        name: 'files__write_file',
        arguments: { path: note, content: 'written from the box' },
      });
      expect(written.isError, JSON.stringify(written.content)).not.toBe(true);
      expect(readFileSync(note, 'utf8')).toBe('written from the box');
      const created = await client.callTool({
        name: 'memory__create_entities',
        arguments: { entities: [{ name: 'box', entityType: 'test', observations: ['kept'] }] },
      });
      expect(created.isError, JSON.stringify(created.content)).not.toBe(true);
      expect(readFileSync(join(workspace, 'memory.jsonl'), 'utf8')).toContain('"box"');
      expect(stderr).not.toContain('runs unboxed');
    } else {
      expect(stderr).toContain('runs unboxed');
    }
    await client.close();

    const servers = childPids(child.pid!);
    expect(servers.length).toBeGreaterThanOrEqual(3);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await survivors(servers)).toEqual([]);
  });
});
