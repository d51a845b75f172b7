import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/cli/demo/resolve-package-bin.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { cliScratch, runCli } from './cli-process.js';

// The mistakes a newcomer makes first, through the built binary: each answer names what went
// wrong and what to do, with the exit code of the table in docs/cli.md.
describe('mcptools CLI: the errors a newcomer meets (built binary)', { timeout: 120_000 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let config: string;
  const cli = (args: string[]) => runCli(args, dir, env);

  beforeAll(() => {
    ({ dir, env } = cliScratch('mcptools-newcomer-'));
    config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          echo: { ...fixtureCommand('echo'), protocol: '2025' },
          ghost: { command: 'mcptools-no-such-command-xyz', args: [] },
          memory: {
            command: process.execPath,
            args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
            env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
          },
        },
      }),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--version and -V print the package version and exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const result = await cli([flag]);
      expect(result.code, flag).toBe(0);
      expect(result.stdout.trim(), flag).toBe(version);
    }
  });

  it('a tool of a server that failed to start names the server, its state and doctor; exit 3', async () => {
    const result = await cli(['call', 'ghost__anything', '--config', config]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('"ghost__anything" is a tool of server "ghost", which failed to connect');
    expect(result.stderr).toContain('command "mcptools-no-such-command-xyz" not found on PATH');
    expect(result.stderr).toContain('mcptools doctor ghost');
    expect(result.stderr).not.toContain('No tool named');
    // The control: a name that belongs to no server is still an unknown tool (exit 2), with a suggestion.
    const unknown = await cli(['call', 'echo__ecoh', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No tool named "echo__ecoh". Did you mean: echo__echo\b/);
  });

  it('servers piped shows the whole last error in plain words, once, and points to doctor', async () => {
    const result = await cli(['servers', '--config', config]);
    expect(result.code).toBe(3);
    const row = result.stdout.split('\n').find((line) => line.startsWith('ghost'));
    expect(row).toContain('command "mcptools-no-such-command-xyz" not found on PATH');
    expect(row).not.toContain('ENOENT');
    expect(row).not.toContain('…');
    expect(result.stderr).toContain(
      '1 of 3 servers not connected: ghost; `mcptools doctor ghost` suggests a fix',
    );
    // --json keeps the whole message as the connection reported it (once, not twice).
    const json = await cli(['servers', '--config', config, '--json']);
    const ghost = (
      JSON.parse(json.stdout) as { servers: { name: string; lastError?: { message: string } }[] }
    ).servers.find((server) => server.name === 'ghost');
    expect(ghost?.lastError?.message.match(/ENOENT/g)).toHaveLength(1);
  });

  it('doctor SERVER checks that one server; an unknown one is a usage error', async () => {
    const one = await cli(['doctor', 'ghost', '--config', config, '--json']);
    expect(one.code).toBe(3);
    const parsed = JSON.parse(one.stdout) as { servers: { name: string; fix?: string }[] };
    expect(parsed.servers.map((server) => server.name)).toEqual(['ghost']);
    expect(parsed.servers[0]?.fix).toContain('not on PATH');
    const fine = await cli(['doctor', 'echo', '--config', config]);
    expect(fine.code).toBe(0);
    expect(fine.stdout).toContain('All 1 servers are fine.');
    const unknown = await cli(['doctor', 'nope', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No server named "nope"');
  });

  it('argument errors go to stderr with the typed name, the expected shape, "did you mean" and the schema command', async () => {
    const missing = await cli(['call', 'memory__create_entities', '--config', config]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain(
      'memory__create_entities: "entities" is required (an array of objects with name',
    );
    expect(missing.stderr).toContain('`mcptools tools --server memory --schemas` prints its schema');
    const typo = await cli(['call', 'memory.search_nodes', 'querry=alice', '--config', config]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('memory.search_nodes: "querry" is not a parameter: did you mean "query"?');
    // The control: the right key calls the tool, and a key like no parameter is sent with a warning.
    const right = await cli(['call', 'memory__search_nodes', 'query=alice', 'extra=1', '--config', config]);
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout)).toMatchObject({ entities: [] });
    expect(right.stderr).toContain('"extra" is not among its parameters (query); sent as typed');
  });

  it('a lenient format\'s warning comes first as a mcptools: line with "did you mean", then the error', async () => {
    const project = join(dir, 'lenient');
    mkdirSync(project);
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { files: { comand: 'npx', args: ['-y', 'x'] } } }),
    );
    const result = await runCli(['servers'], project, env);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe(
      'mcptools: warning: .mcp.json: server "files": field "comand": not used by mcptools, ignored; did you mean "command"?',
    );
    expect(lines[1]).toContain('server "files": needs "command"');
    expect(result.stderr).not.toContain('trace-warnings');
  });

  it('with --json, a failure is a JSON document on stdout too (command errors and usage errors)', async () => {
    const failed = await cli(['--json', 'call', 'ghost__anything', '--config', config]);
    expect(failed.code).toBe(3);
    expect(JSON.parse(failed.stdout)).toMatchObject({ error: { code: 'CONNECTION_FAILED', exitCode: 3 } });
    const usage = await cli(['--json', 'no-such-command']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS', exitCode: 2 } });
  });

  it('serve on a busy port names the port and how to choose another; exit 2', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const result = await cli(['serve', '--http', `127.0.0.1:${port}`, '--config', config]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`port ${port} is in use on 127.0.0.1`);
      expect(result.stderr).toContain('--http HOST:PORT');
      expect(result.stderr).toContain('MCPTOOLS_PORT');
      expect(result.stderr).not.toContain('EADDRINUSE');
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });

  it('serve refuses an open bind without a token before it starts any server', async () => {
    const marker = join(dir, 'started');
    const starts = join(dir, 'starts.json');
    writeFileSync(
      starts,
      JSON.stringify({
        servers: {
          // A server that leaves a file behind the moment it is started.
          marked: {
            command: process.execPath,
            args: [
              '-e',
              `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'); setTimeout(() => {}, 5000)`,
            ],
          },
        },
      }),
    );
    const result = await cli(['serve', '--http', '0.0.0.0:0', '--config', starts]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to listen on 0.0.0.0 without a token');
    expect(existsSync(marker)).toBe(false);
  });
});
