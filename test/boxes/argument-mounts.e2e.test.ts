import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin, cliScratch, runCli } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { publishedServers, textOf } from '../mcp/hub-test-helpers.js';
import { boxUnavailable } from './box-availability.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const unavailable = boxUnavailable();
if (unavailable !== undefined)
  console.warn(`test/boxes/argument-mounts.e2e.test.ts: skipping the boxed servers: ${unavailable}`);

// A home and a state folder of the test's own, which the gateway (and its boxes) are started with.
const { dir, env: scratchEnv } = cliScratch('mcptools-argument-mounts-e2e-');
const home = join(dir, 'home');
const state = join(home, '.local', 'state', 'mcptools');
const env = { ...scratchEnv, XDG_STATE_HOME: join(home, '.local', 'state') };
const served = join(dir, 'served');
const outside = join(dir, 'outside');
// Named in an entry's env: the gateway masks env values in what it returns, so paths of their own.
const envFolder = join(dir, 'env-folder');
const envFile = join(dir, 'env-note.txt');
const config = join(dir, 'gateway', 'mcptools.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const filesystem = (folder: string) => ({
  command: process.execPath,
  args: [publishedServers.filesystem, folder],
  sandbox: { read: [join(ROOT, 'node_modules')] },
});

beforeAll(() => {
  for (const folder of [served, join(served, 'notes'), outside, state, join(dir, 'gateway')])
    mkdirSync(folder, { recursive: true });
  writeFileSync(join(served, 'inside.txt'), 'inside');
  mkdirSync(envFolder);
  writeFileSync(join(envFolder, 'inside.txt'), 'env inside');
  writeFileSync(envFile, 'env note');
  writeFileSync(join(outside, 'secret.txt'), 'outside');
  writeFileSync(join(state, 'secrets.json'), '{"entries":{}}');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        // server-filesystem told to serve `served`: the box mounts it, writable.
        files: filesystem(served),
        // The box probe with the same folder named last in its args, and without it (the control).
        named: { ...fixtureCommand('box-probe', [served]), sandbox: { read: [ROOT] } },
        bare: { ...fixtureCommand('box-probe'), sandbox: { read: [ROOT] } },
        // The same folder under read: it stays read-only.
        readonly: { ...fixtureCommand('box-probe', [served]), sandbox: { read: [ROOT, served] } },
        // A server that lists its client's roots, boxed with `served`, and unboxed (the control).
        boxedRoots: { ...fixtureCommand('sampling', [served]), sandbox: { read: [ROOT] } },
        openRoots: fixtureCommand('sampling', [served]),
        // The same, spoken to in 2026-07-28 (roots asked in an input_required round).
        modernRoots: {
          ...fixtureCommand('sampling', [served]),
          sandbox: { read: [ROOT] },
          protocol: '2026-07-28',
        },
        // The folder named in its env instead of its args, and a file there (read-only).
        fromEnv: {
          ...fixtureCommand('box-probe'),
          env: { DATA_DIR: envFolder, NOTE_FILE: envFile },
          sandbox: { read: [ROOT] },
        },
        // The secret vault in the state folder named in env: never started.
        envState: {
          ...fixtureCommand('box-probe'),
          env: { DATA_DIR: join(state, 'secrets.json') },
          sandbox: { read: [ROOT] },
        },
        // Folders a box never mounts, named in args.
        home: filesystem(home),
        state: filesystem(state),
        config: filesystem(join(dir, 'gateway')),
      },
    }),
  );
});

/** A client of `serve --stdio` that gives `roots` when asked. */
async function gatewayClient(roots: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliBin, 'serve', '--stdio', '--config', config],
    env: env as Record<string, string>,
    cwd: dir,
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'argument-mounts-test', version: '1.0.0' },
    { capabilities: { roots: {} } },
  );
  client.setRequestHandler('roots/list', async () => ({
    roots: roots.map((path) => ({ uri: pathToFileURL(path).href, name: path.split('/').pop()! })),
  }));
  await client.connect(transport);
  return client;
}

describe.skipIf(unavailable !== undefined)(
  "folders named in a boxed server's args, through the gateway",
  () => {
    let client: Client;
    beforeAll(async () => {
      client = await gatewayClient([join(served, 'notes'), outside, dir]);
    }, 120_000);
    afterAll(async () => {
      await client?.close();
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      textOf((await client.callTool({ name, arguments: args })) as never);

    it('server-filesystem reads and writes in the folder its args name, and not outside it', async () => {
      expect(await call('files__read_text_file', { path: join(served, 'inside.txt') })).toBe('inside');
      expect(
        await call('files__write_file', { path: join(served, 'written.txt'), content: 'from the box' }),
      ).toMatch(/Successfully wrote/);
      expect(readFileSync(join(served, 'written.txt'), 'utf8')).toBe('from the box');
      expect(await call('files__read_text_file', { path: join(outside, 'secret.txt') })).toMatch(
        /Access denied|outside allowed/,
      );
    });

    it('the box shows the named folder writable and nothing outside it; without the folder in args, nothing', async () => {
      expect(await call('named__read_file', { path: join(served, 'inside.txt') })).toBe('inside');
      // The box itself hides the rest of the host (not only the server's own check).
      expect(await call('named__read_file', { path: join(outside, 'secret.txt') })).toBe('error: ENOENT');
      expect(await call('named__read_file', { path: join(state, 'secrets.json') })).toBe('error: ENOENT');
      expect(await call('named__run', { command: 'touch', args: [join(served, 'touched')] })).not.toMatch(
        /error/,
      );
      expect(readFileSync(join(served, 'touched'), 'utf8')).toBe('');
      // Controls: the same server without the folder in its args does not see it; under read it is read-only.
      expect(await call('bare__read_file', { path: join(served, 'inside.txt') })).toBe('error: ENOENT');
      expect(await call('readonly__read_file', { path: join(served, 'inside.txt') })).toBe('inside');
      expect(await call('readonly__run', { command: 'touch', args: [join(served, 'refused')] })).toMatch(
        /^error/,
      );
    });

    it('the box shows a folder its env names writable and a file read-only, at the same path', async () => {
      expect(await call('fromEnv__read_file', { path: join(envFolder, 'inside.txt') })).toBe('env inside');
      expect(
        await call('fromEnv__run', { command: 'touch', args: [join(envFolder, 'from-env')] }),
      ).not.toMatch(/error/);
      expect(readFileSync(join(envFolder, 'from-env'), 'utf8')).toBe('');
      // The file is shown, read-only.
      expect(await call('fromEnv__read_file', { path: envFile })).toBe('env note');
      expect(await call('fromEnv__run', { command: 'sh', args: ['-c', `echo x >> ${envFile}`] })).toMatch(
        /^error/,
      );
      expect(readFileSync(envFile, 'utf8')).toBe('env note');
      // Control: what neither its args nor its env name stays hidden.
      expect(await call('fromEnv__read_file', { path: join(served, 'inside.txt') })).toBe('error: ENOENT');
    });

    it('a boxed server is told only the roots its box shows; an unboxed one all of them', async () => {
      const boxed = (await call('boxedRoots__list_roots', {})).split('\n');
      expect(boxed).toEqual([pathToFileURL(join(served, 'notes')).href, pathToFileURL(served).href]);
      expect(boxed.join('\n')).not.toContain(outside);
      expect((await call('modernRoots__list_roots', {})).split('\n')).toEqual(boxed);
      const open = (await call('openRoots__list_roots', {})).split('\n');
      expect(open).toEqual([
        pathToFileURL(join(served, 'notes')).href,
        pathToFileURL(outside).href,
        pathToFileURL(dir).href,
      ]);
    });

    it("never starts a server whose args or env name the home, the state folder or the configuration's folder", async () => {
      const { tools } = await client.listTools();
      const servers = new Set(tools.map((tool) => tool.name.split('__')[0]));
      expect(servers.has('files')).toBe(true);
      expect(servers.has('fromEnv')).toBe(true);
      for (const refused of ['home', 'state', 'config', 'envState'])
        expect(servers.has(refused), refused).toBe(false);
    });
  },
);

describe.skipIf(unavailable !== undefined)('doctor on a server whose args name a protected folder', () => {
  it('says which argument names what, and that a box never mounts it', async () => {
    const result = await runCli(['doctor', 'home', '--config', config], dir, env);
    expect(result.code).toBe(3);
    // The start's error (shortened by doctor) names the configuration file and the argument; the fix explains.
    expect(result.stdout).toContain(`server "home" in ${config}: args[1] "${home}" is the`);
    expect(result.stdout).toContain(
      `fix: args[1] names ${home}: the user's home folder as a whole, which a box never mounts`,
    );
    const stateRun = await runCli(['doctor', 'state', '--config', config], dir, env);
    expect(stateRun.stdout).toContain(`fix: args[1] names ${state}: the gateway's state folder`);
    // Control: the server beside it, with a folder it may have, passes.
    const files = await runCli(['doctor', 'files', '--config', config], dir, env);
    expect(files.code).toBe(0);
    expect(files.stdout).toContain('from its args and env 1 writable and 0 read-only paths');
  }, 120_000);
});
