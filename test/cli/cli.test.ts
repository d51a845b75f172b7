import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { runCli } from './cli-process.js';

const run = (args: string[], cwd: string) => runCli(args, cwd);

describe('mcptools CLI (built binary)', { timeout: 120_000 }, () => {
  let dir: string;
  let config: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-cli-'));
    config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          echo: { ...fixtureCommand('echo'), protocol: '2025' },
          broken: { ...fixtureCommand('exit-at-start') },
          remote: {
            type: 'streamable-http',
            url: 'http://127.0.0.1:9/mcp',
            headers: { Authorization: 'Bearer SECRET-TOKEN-123' },
            connectTimeoutMs: 2000,
          },
        },
      }),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('servers --json reports every server, failed ones with their reason, and no secret; exit 3', async () => {
    const result = await run(['servers', '--config', config, '--json'], dir);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('2 of 3 servers not connected: broken, remote');
    const parsed = JSON.parse(result.stdout) as {
      servers: { name: string; state: string; lastError?: { message: string } }[];
    };
    const byName = new Map(parsed.servers.map((server) => [server.name, server]));
    expect(byName.get('echo')?.state).toBe('connected');
    expect(byName.get('broken')?.state).not.toBe('connected');
    expect(byName.get('broken')?.lastError?.message).toBeTruthy();
    expect(byName.get('remote')?.state).not.toBe('connected');
    expect(result.stdout + result.stderr).not.toContain('SECRET-TOKEN-123');
  });

  it('tools lists namespaced MCP tools in a table', async () => {
    const result = await run(['tools', '--config', config], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^echo__echo\s+mcp:echo\s+/m);
  });

  it('tools --search ranks tools as tool_index does; a bad --limit exits 2', async () => {
    const result = await run(
      ['tools', '--search', 'add two numbers', '--limit', '2', '--config', config, '--json'],
      dir,
    );
    expect(result.code).toBe(0);
    const ranked = JSON.parse(result.stdout) as { name: string }[];
    expect(ranked.map((tool) => tool.name)[0]).toBe('echo__add');
    expect(ranked.length).toBeLessThanOrEqual(2);
    const table = await run(['tools', '--search', 'add two numbers', '--config', config], dir);
    expect(table.stdout.split('\n')[1]).toMatch(/^echo__add\s+mcp:echo\s+/);
    const bad = await run(['tools', '--search', 'add', '--limit', '0', '--config', config], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit <n>.*expected a positive whole number/);
  });

  it('tools --search with an embeddings endpoint that is down ranks lexically and says why', async () => {
    const semantic = join(dir, 'semantic.json');
    writeFileSync(
      semantic,
      JSON.stringify({
        servers: { echo: { ...fixtureCommand('echo'), protocol: '2025' } },
        router: {
          semanticSearch: { url: 'http://127.0.0.1:9/v1/embeddings', model: 'm', apiKey: 'SECRET-KEY-456' },
        },
      }),
    );
    const result = await run(['tools', '--search', 'add two numbers', '--config', semantic, '--json'], dir);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { name: string }[])[0]?.name).toBe('echo__add');
    expect(result.stderr).toContain('semantic search failed, lexical ranking only');
    expect(result.stderr).toContain('127.0.0.1:9');
    expect(result.stdout + result.stderr).not.toContain('SECRET-KEY-456');
  });

  it('call prints the tool result and exits 0', async () => {
    const result = await run(
      ['call', 'echo__echo', '{"text":"hello from the cli"}', '--config', config],
      dir,
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('hello from the cli');
  });

  it('router tools sit beside the others: call tool_index ranks the matching tool first', async () => {
    const result = await run(
      ['call', 'tool_index', '{"search":"add two numbers","limit":3}', '--config', config, '--json'],
      dir,
    );
    expect(result.code).toBe(0);
    const found = JSON.parse(result.stdout).details.tools as { name: string }[];
    expect(found[0]?.name).toBe('echo__add');
  });

  it('call exits 1 when the tool returns an error', async () => {
    const result = await run(['call', 'echo__fail', '{"message":"nope"}', '--config', config, '--json'], dir);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).isError).toBe(true);
  });

  it('call exits 2 (usage) with the field named when arguments fail the schema', async () => {
    const result = await run(['call', 'echo__echo', '{"text":5}', '--config', config], dir);
    expect(result.code).toBe(2);
    // Checked before the call, on stderr, with the field and the shape it expects.
    expect(result.stderr).toContain('echo__echo: "text" must be string (a string)');
    expect(result.stdout).toBe('');
  });

  it('call of an unknown tool exits 2 and suggests close names', async () => {
    const result = await run(['call', 'echo_echo', '{}', '--config', config], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('echo__echo');
  });

  it('call with arguments that are not JSON exits 2', async () => {
    const result = await run(['call', 'echo__echo', '{text:', '--config', config], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not valid JSON/);
  });

  it('a broken config exits 2 naming the file, the server and the field', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ servers: { files: { comand: 'node' } } }));
    const result = await run(['servers', '--config', bad], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('bad.json');
    expect(result.stderr).toContain('"files"');
    expect(result.stderr).toContain('comand');
  });

  it('loads the OpenClaw plugins a config names beside its servers, reporting a broken one', async () => {
    const withPlugins = join(dir, 'plugins.json');
    const pluginDir = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
    copyFileSync(join(pluginDir, 'esm-plugin.mjs'), join(dir, 'esm-plugin.mjs'));
    writeFileSync(
      withPlugins,
      JSON.stringify({
        servers: { echo: { ...fixtureCommand('echo'), protocol: '2025' } },
        plugins: ['./esm-plugin.mjs', join(pluginDir, 'throwing-plugin.mjs')],
      }),
    );
    const servers = await run(['servers', '--config', withPlugins, '--json'], dir);
    expect(servers.code).toBe(0); // a broken plugin is reported, not a connection failure
    const plugins = JSON.parse(servers.stdout).plugins as { id: string; status: string }[];
    expect(plugins.map(({ id, status }) => `${id}:${status}`)).toEqual([
      'esm-plugin:loaded',
      'throwing-plugin:error',
    ]);
    expect(servers.stderr).toContain('register blew up');
    const call = await run(['call', 'esm_sum', '{"a":2,"b":3}', '--config', withPlugins, '--json'], dir);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout).details).toEqual({ sum: 5 });
  });

  it('an unknown command is a usage error (exit 2)', async () => {
    const result = await run(['frobnicate'], dir);
    expect(result.code).toBe(2);
  });
});
