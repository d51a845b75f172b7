import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, serverCommand } from '../fixtures/spawn-http.js';
import { runCli } from './cli-process.js';

const typedArgsServer = fileURLToPath(new URL('./fixtures/typed-args-server.ts', import.meta.url));
const ESCAPE = '\u001b[';

describe('mcptools CLI commands (built binary)', { timeout: 120_000 }, () => {
  let dir: string;
  let config: string;
  let env: NodeJS.ProcessEnv;

  const cli = (args: string[], cwd = dir) => runCli(args, cwd, env);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-cli-commands-'));
    // A home of its own, so no config file of the machine running the tests is discovered.
    env = { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config') };
    delete env.NO_COLOR;
    mkdirSync(join(dir, 'home'));
    config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          echo: { ...fixtureCommand('echo'), protocol: '2025' },
          typed: {
            ...serverCommand(typedArgsServer),
            protocol: '2025',
          },
        },
      }),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('servers --json: every server connected, with its connect time; exit 0; no colour on a pipe', async () => {
    const result = await cli(['servers', '--config', config, '--json']);
    expect(result.code).toBe(0);
    const { servers } = JSON.parse(result.stdout) as {
      servers: { name: string; state: string; connectMs: number; protocolVersion: string }[];
    };
    expect(servers.map((server) => [server.name, server.state])).toEqual([
      ['echo', 'connected'],
      ['typed', 'connected'],
    ]);
    for (const server of servers) expect(server.connectMs).toBeGreaterThan(0);
    const table = await cli(['servers', '--config', config]);
    expect(table.stdout).toMatch(/^SERVER\s+STATE\s+TRANSPORT\s+PROTOCOL.*CONNECT\s+LAST ERROR$/m);
    expect(table.stdout).toMatch(/^echo\s+connected\s+stdio\s+\S+ \(2025\)\s+\d+\s+\d+\s+\d+\s+\d+ ms/m);
    expect(table.stdout + table.stderr).not.toContain(ESCAPE);
  });

  it('tools --server keeps one server’s tools; an unknown server is a usage error', async () => {
    const result = await cli(['tools', '--server', 'typed', '--config', config, '--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { name: string }[]).map((tool) => tool.name)).toEqual([
      'typed__inspect',
    ]);
    const unknown = await cli(['tools', '--server', 'ech', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No server named "ech"');
    expect(unknown.stderr).toContain('echo');
  });

  it('call key=value coerces each JSON type by the tool’s schema', async () => {
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'from a file');
    const result = await cli([
      'call',
      'typed__inspect',
      'count=3',
      'ratio=2.5',
      'flag=true',
      'options={"depth":2}',
      'tags=["a","b"]',
      'maybe=null',
      `text=@${file}`,
      '--config',
      config,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      count: { value: 3, type: 'number' },
      ratio: { value: 2.5, type: 'number' },
      flag: { value: true, type: 'boolean' },
      options: { value: { depth: 2 }, type: 'object' },
      tags: { value: ['a', 'b'], type: 'array' },
      maybe: { value: null, type: 'null' },
      text: { value: 'from a file', type: 'string' },
    });
    // A string property keeps digits as text.
    const text = await cli(['call', 'typed__inspect', 'text=42', '--config', config]);
    expect(JSON.parse(text.stdout).text).toEqual({ value: '42', type: 'string' });
  });

  it('call key=value rejects a value its type cannot take, and a missing @file, with exit 2', async () => {
    const count = await cli(['call', 'typed__inspect', 'count=many', '--config', config]);
    expect(count.code).toBe(2);
    expect(count.stderr).toContain('count: expected an integer, got "many"');
    const flag = await cli(['call', 'typed__inspect', 'flag=maybe', '--config', config]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('flag: expected true or false');
    const missing = await cli(['call', 'typed__inspect', 'text=@nope.txt', '--config', config]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ENOENT');
    const bare = await cli(['call', 'typed__inspect', 'oops', '--config', config]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Expected key=value');
  });

  it('call prints structuredContent as JSON, accepts server.tool, and --json gives the whole result', async () => {
    const result = await cli(['call', 'echo.add', 'a=2', 'b=3', '--config', config]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"sum": 5');
    const json = await cli(['call', 'echo__add', 'a=2', 'b=3', '--config', config, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ structuredContent: { sum: 5 } });
  });

  it('call, read and prompt start only the server the name designates; other names start all', async () => {
    // `broken` leaves a marker file when it is started, then exits: it never connects.
    const marker = join(dir, 'broken-started');
    const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1)`;
    const twoServers = join(dir, 'two-servers.json');
    writeFileSync(
      twoServers,
      JSON.stringify({
        servers: {
          echo: { ...fixtureCommand('echo'), protocol: '2025' },
          broken: { command: process.execPath, args: ['-e', script] },
        },
      }),
    );
    const run = (args: string[]) => cli([...args, '--config', twoServers]);
    for (const args of [
      ['call', 'echo__add', 'a=2', 'b=3', '--json'],
      ['call', 'echo.add', 'a=2', 'b=3'],
      ['read', 'echo', 'echo://static/hello'],
      ['prompt', 'echo', 'greet', 'name=Ada'],
    ]) {
      const result = await run(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stderr, args.join(' ')).not.toContain('broken');
      expect(existsSync(marker), `${args.join(' ')} started the other server`).toBe(false);
    }
    // A tool the narrowed server lacks: "No tool named", with that server's tools as suggestions.
    const missing = await run(['call', 'echo__ad']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No tool named "echo__ad"\. Did you mean: [^?]*echo__add/);
    expect(existsSync(marker)).toBe(false);
    // The named server failing: the same exit code and doctor hint as when all are started.
    const failing = await run(['call', 'broken__anything']);
    expect(failing.code).toBe(3);
    expect(failing.stderr).toContain('server "broken", which failed to connect');
    expect(failing.stderr).toContain('mcptools doctor broken');
    rmSync(marker);
    // Control: a name of no server's namespace (a router tool here) starts every server.
    const unprefixed = await run(['call', 'tool_index', 'search=add', '--json']);
    expect(unprefixed.stdout).toContain('echo__add');
    expect(existsSync(marker), 'a name of no server started them all').toBe(true);
  });

  it('call --save writes images and audio to files and names them', async () => {
    const out = join(dir, 'saved');
    const result = await cli(['call', 'echo__mixed', '--save', out, '--config', config]);
    expect(result.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files.some((file) => file.endsWith('.png'))).toBe(true);
    expect(files.some((file) => file.endsWith('.wav'))).toBe(true);
    const png = files.find((file) => file.endsWith('.png'))!;
    expect(readFileSync(join(out, png)).subarray(1, 4).toString()).toBe('PNG');
    expect(result.stdout).toMatch(/\[image: image\/png, \d+ B → .*\.png\]/);
    const unsaved = await cli(['call', 'echo__mixed', '--config', config]);
    expect(unsaved.stdout).toMatch(/\[audio: audio\/wav, \d+ B\]/);
  });

  it('call --format compact prints the compact format’s two lines', async () => {
    const result = await cli(['call', 'echo__echo', 'text=hi', '--format', 'compact', '--config', config]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('✅ mcp tool call: echo__echo');
    expect(lines[1]).toMatch(
      /^ {2}state: success \| data: \{tool: "echo__echo", content: "hi"\} \| meta: \{agent: mcp, time: /,
    );
    const bad = await cli(['call', 'echo__echo', 'text=hi', '--format', 'fancy', '--config', config]);
    expect(bad.code).toBe(2);
  });

  it('--timeout 1e3 is 1000 ms: a slower call exits 4 naming it', async () => {
    const result = await cli([
      'call',
      'echo__slow',
      'ms=20000',
      'steps=1',
      '--timeout',
      '1e3',
      '--config',
      config,
    ]);
    expect(result.code).toBe(4);
    expect(result.stdout + result.stderr).toMatch(/1000 ?ms/);
  });

  it('durations that are negative, not numbers or above 2^31−1 ms are usage errors (exit 2)', async () => {
    for (const args of [
      ['call', 'echo__echo', 'text=x', '--timeout', '-1'],
      ['call', 'echo__echo', 'text=x', '--timeout', 'soon'],
      ['call', 'echo__echo', 'text=x', '--timeout', '3e9'],
      ['--connect-timeout', '-5', 'servers'],
    ]) {
      const result = await cli([...args, '--config', config]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/timeout/);
      expect(result.stderr).not.toMatch(/RangeError|\n\s+at /);
    }
    const huge = await cli(['call', 'echo__echo', 'text=x', '--timeout', '3e9', '--config', config]);
    expect(huge.stderr).toContain('2147483647');
  });

  it('resources --json lists every server’s resources and templates; --format compact is the compact format', async () => {
    const result = await cli(['resources', '--config', config, '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      resources: { server: string; uri: string }[];
      templates: { uriTemplate: string }[];
      errors: unknown[];
    };
    expect(parsed.resources.map((resource) => resource.uri)).toContain('echo://static/hello');
    expect(parsed.templates.map((template) => template.uriTemplate)).toContain('echo://items/{id}');
    expect(parsed.errors).toEqual([]);
    const compact = await cli(['resources', '--server', 'echo', '--format', 'compact', '--config', config]);
    expect(compact.stdout).toMatch(/^✅ mcp resource list: 1 server\(s\), 3 resource\(s\)/);
    expect(compact.stdout).toMatch(/\n {2}state: success \| data: /);
  });

  it('read prints text, cuts it at --max-bytes on a character boundary, and --out writes blob bytes', async () => {
    const json = await cli(['read', 'echo', 'echo://static/hello', '--config', config, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      contents: [{ uri: 'echo://static/hello', text: 'hello' }],
    });
    const cut = await cli(['read', 'echo', 'echo://static/unicode', '--max-bytes', '5', '--config', config]);
    expect(cut.stdout).toBe('Grü\n');
    expect(cut.stderr).toContain('--max-bytes');
    const out = join(dir, 'blob.bin');
    const blob = await cli(['read', 'echo', 'echo://static/blob', '--out', out, '--config', config]);
    expect(blob.code).toBe(0);
    const bytes = readFileSync(out);
    expect(bytes.length).toBe(1024);
    expect(bytes[255]).toBe(255);
    const compact = await cli([
      'read',
      'echo',
      'echo://static/hello',
      '--format',
      'compact',
      '--config',
      config,
    ]);
    expect(compact.stdout).toMatch(/^✅ mcp resource read: echo:\/\/static\/hello/);
  });

  it('read of an unknown resource exits 1 with the reason', async () => {
    const result = await cli(['read', 'echo', 'echo://static/missing', '--config', config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/echo:\/\/static\/missing/);
  });

  it('prompts --json lists prompts with their arguments; prompt expands one', async () => {
    const list = await cli(['prompts', '--config', config, '--json']);
    expect(list.code).toBe(0);
    const { prompts } = JSON.parse(list.stdout) as {
      prompts: { server: string; name: string; arguments: { name: string }[] }[];
    };
    expect(prompts).toContainEqual(expect.objectContaining({ server: 'echo', name: 'greet' }));
    const text = await cli(['prompt', 'echo', 'greet', 'name=Ada', '--config', config]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('user: Hello, Ada!');
    const json = await cli(['prompt', 'echo', 'greet', 'name=Ada', '--config', config, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      server: 'echo',
      name: 'greet',
      messages: [{ role: 'user' }],
    });
  });

  it('config --json names the file each server comes from and masks secrets', async () => {
    const secretConfig = join(dir, 'secret.json');
    writeFileSync(
      secretConfig,
      JSON.stringify({
        mcpServers: {
          api: {
            url: 'http://127.0.0.1:9/mcp?key=QUERY-SECRET',
            headers: { Authorization: 'Bearer HEADER-SECRET' },
          },
          tool: {
            command: 'node',
            args: ['srv.js', '--api-key', 'ARG-SECRET'],
            env: { TOKEN: 'ENV-SECRET' },
          },
        },
      }),
    );
    const result = await cli(['config', '--config', secretConfig, '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { source: string; servers: { name: string; from: string }[] };
    expect(parsed.source).toBe('secret.json');
    expect(parsed.servers.map((server) => [server.name, server.from])).toEqual([
      ['api', 'secret.json'],
      ['tool', 'secret.json'],
    ]);
    const text = await cli(['config', '--config', secretConfig]);
    for (const output of [result.stdout, text.stdout, result.stderr, text.stderr])
      expect(output).not.toMatch(/QUERY-SECRET|HEADER-SECRET|ARG-SECRET|ENV-SECRET/);
  });

  it('config --all merges every file found; a later file never overrides a server an earlier one named', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, '.vscode'), { recursive: true });
    writeFileSync(
      join(project, 'mcptools.json'),
      JSON.stringify({ servers: { shared: { command: 'first-cmd' } } }),
    );
    writeFileSync(
      join(project, '.vscode', 'mcp.json'),
      JSON.stringify({
        servers: { shared: { type: 'stdio', command: 'second-cmd' }, only: { type: 'stdio', command: 'x' } },
      }),
    );
    const result = await cli(['config', '--all', '--json'], project);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      files: { file: string }[];
      servers: { name: string; from: string; config: { command: string } }[];
      shadowed: { name: string; from: string; keptFrom: string }[];
    };
    expect(parsed.files.map((file) => file.file)).toEqual(['mcptools.json', join('.vscode', 'mcp.json')]);
    expect(parsed.servers.find((server) => server.name === 'shared')).toMatchObject({
      from: 'mcptools.json',
      config: { command: 'first-cmd' },
    });
    expect(parsed.servers.find((server) => server.name === 'only')?.from).toBe(join('.vscode', 'mcp.json'));
    expect(parsed.shadowed).toEqual([
      { name: 'shared', from: join('.vscode', 'mcp.json'), keptFrom: 'mcptools.json' },
    ]);
  });

  it('with no configuration anywhere, commands use the built-in default and say so in one line on stderr', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const result = await cli(['config', '--json'], empty);
    expect(result.code).toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual([
      'mcptools: no configuration file found; using the built-in default (see `mcptools config`)',
    ]);
    const parsed = JSON.parse(result.stdout) as { builtIn: boolean; servers: { name: string }[] };
    expect(parsed.builtIn).toBe(true);
    expect(parsed.servers.map((server) => server.name)).toEqual(['everything', 'files', 'memory']);
    expect(readdirSync(empty)).toEqual([]); // showing the configuration creates nothing
  });

  describe('doctor', () => {
    let unauthorized: Server;
    let unauthorizedUrl: string;

    beforeAll(async () => {
      unauthorized = createServer((request, response) => {
        request.resume();
        response.writeHead(401, { 'www-authenticate': 'Bearer' }).end('{"error":"unauthorized"}');
      });
      await new Promise<void>((resolve) => unauthorized.listen(0, '127.0.0.1', resolve));
      unauthorizedUrl = `http://127.0.0.1:${(unauthorized.address() as AddressInfo).port}/mcp`;
    });

    afterAll(() => new Promise<void>((resolve) => unauthorized.close(() => resolve())));

    it('doctor --json checks every server and suggests a fix for each failure; exit 3', async () => {
      const doctorConfig = join(dir, 'doctor.json');
      // An `npx` that answers like npm does for a package the registry does not have.
      const fakeNpx = join(dir, 'bin', 'npx');
      mkdirSync(join(dir, 'bin'), { recursive: true });
      writeFileSync(
        fakeNpx,
        '#!/bin/sh\necho "npm error code E404" >&2\necho "npm error 404 Not Found - GET @nope/ghost-server" >&2\nexit 1\n',
        { mode: 0o755 },
      );
      writeFileSync(
        doctorConfig,
        JSON.stringify({
          servers: {
            good: { ...fixtureCommand('echo'), protocol: '2025' },
            missing: { command: 'mcptools-no-such-command-xyz', args: [] },
            wrongpath: { command: process.execPath, args: ['./no/such/server.js'] },
            refused: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', connectTimeoutMs: 5000 },
            locked: { type: 'streamable-http', url: unauthorizedUrl, connectTimeoutMs: 5000 },
            ghost: { command: fakeNpx, args: ['-y', '@nope/ghost-server'] },
          },
        }),
      );
      const result = await cli(['doctor', '--config', doctorConfig, '--json']);
      expect(result.code).toBe(3);
      const parsed = JSON.parse(result.stdout) as {
        ok: boolean;
        servers: {
          name: string;
          state: string;
          commandFound?: boolean;
          readyMs?: number;
          era?: string;
          fix?: string;
        }[];
      };
      expect(parsed.ok).toBe(false);
      const byName = new Map(parsed.servers.map((server) => [server.name, server]));
      expect(byName.get('good')).toMatchObject({ state: 'connected', commandFound: true, era: 'legacy' });
      expect(byName.get('good')?.readyMs).toBeGreaterThan(0);
      expect(byName.get('good')?.fix).toBeUndefined();
      expect(byName.get('missing')).toMatchObject({ commandFound: false });
      expect(byName.get('missing')?.fix).toContain('not on PATH');
      expect(byName.get('wrongpath')?.fix).toContain('file not found: ./no/such/server.js');
      expect(byName.get('refused')?.fix).toMatch(/nothing (listens|answers) at 127\.0\.0\.1:9\b/);
      expect(byName.get('locked')?.fix).toContain('401');
      expect(byName.get('ghost')?.fix).toContain('npx could not find the package "@nope/ghost-server"');
      const text = await cli(['doctor', '--config', doctorConfig]);
      expect(text.code).toBe(3);
      expect(text.stdout).toMatch(/✓ good/);
      expect(text.stdout).toMatch(/✗ missing[\s\S]*fix: "mcptools-no-such-command-xyz" is not on PATH/);
      expect(text.stdout).toContain('5 of 6 servers need attention.');
    });
  });

  it('demo --json connects the built-in servers and lists their tools beside the native ones', async () => {
    const result = await cli(['demo', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      servers: { name: string; state: string }[];
      tools: { name: string }[];
    };
    expect(parsed.servers.map((server) => `${server.name}:${server.state}`)).toEqual([
      'everything:connected',
      'files:connected',
      'memory:connected',
    ]);
    expect(parsed.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['word_count', 'tool_index']),
    );
  });

  it('every command has --help with an example', async () => {
    for (const command of [
      'servers',
      'tools',
      'call',
      'resources',
      'read',
      'prompts',
      'prompt',
      'config',
      'doctor',
      'demo',
    ]) {
      const result = await cli([command, '--help']);
      expect(result.code, command).toBe(0);
      expect(result.stdout, command).toMatch(/Examples?:\n {2}mcptools /);
    }
  });
});
