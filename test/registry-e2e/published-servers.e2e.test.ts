import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliScratch, runCli } from '../cli/cli-process.js';
import { type CatalogFixture, startCatalogFixture } from '../fixtures/registry/catalog-fixture.js';
import { NPM_SERVER_VERSIONS } from '../fixtures/registry/fixture-records.js';
import { connectClient } from '../gateway/gateway-test-helpers.js';
import { startServeHttp } from '../gateway/start-serve-http.js';

// `npm run test:registry`: the published memory, filesystem and everything servers added by name
// from the registry fixture, installed from npm into their locked prefixes, started and called
// through the CLI and through `serve`. Needs npm's registry; kept out of `npm test`.

const CANARY = 'canary-memory-path-8c2e71';
let fixture: CatalogFixture;
let scratch: { dir: string; env: NodeJS.ProcessEnv };
let project: string;
let shared: string;
let env: NodeJS.ProcessEnv;

const cli = (args: string[], cwd = project, extra: NodeJS.ProcessEnv = {}) =>
  runCli(args, cwd, { ...env, ...extra });
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? filesUnder(join(dir, item.name)) : [join(dir, item.name)],
  );
}

beforeAll(async () => {
  fixture = await startCatalogFixture({ remote: false });
  scratch = cliScratch('mcptools-registry-e2e-');
  project = join(scratch.dir, 'project');
  shared = join(scratch.dir, 'shared');
  mkdirSync(project);
  mkdirSync(shared);
  writeFileSync(join(shared, 'hello.txt'), 'hello from the allowed directory');
  env = { ...scratch.env, XDG_STATE_HOME: join(scratch.dir, 'state'), MCPTOOLS_REGISTRY: fixture.url };
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  if (scratch) rmSync(scratch.dir, { recursive: true, force: true });
});

describe('published npm servers added by name', () => {
  it('adds server-memory at an older version, server-filesystem and server-everything, locked', async () => {
    const [older] = NPM_SERVER_VERSIONS.memory;
    const memory = await cli(['add', `io.github.modelcontextprotocol/server-memory@${older}`, '--yes']);
    expect(memory.code, memory.stderr).toBe(0);
    const files = await cli([
      'add',
      'io.github.modelcontextprotocol/server-filesystem',
      '--arg',
      `allowed_directory=${shared}`,
      '--yes',
    ]);
    expect(files.code, files.stderr).toBe(0);
    const everything = await cli(['add', 'io.github.modelcontextprotocol/server-everything', '--yes']);
    expect(everything.code, everything.stderr).toBe(0);
    const { servers } = readJson(join(project, 'mcptools.json'));
    expect(servers.memory.args).toEqual(['-y', `@modelcontextprotocol/server-memory@${older}`]);
    expect(servers.filesystem.args).toEqual([
      '-y',
      `@modelcontextprotocol/server-filesystem@${NPM_SERVER_VERSIONS.filesystem}`,
      shared,
    ]);
    const lock = readJson(join(project, 'mcptools-lock.json')).servers;
    for (const entry of ['memory', 'filesystem', 'everything']) {
      expect(lock[entry].package.integrity).toMatch(/^sha512-/);
      // Every dependency of the tree is locked with its own tarball hash.
      const modules = Object.values(lock[entry].package.modules) as { integrity?: string }[];
      expect(modules.length).toBeGreaterThan(1);
      expect(modules.every((module) => typeof module.integrity === 'string')).toBe(true);
    }
  });

  it('lists and calls their tools through the CLI, started from the locked prefixes', async () => {
    const tools = await cli(['tools']);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toContain('memory__read_graph');
    expect(tools.stdout).toContain('filesystem__read_text_file');
    expect(tools.stdout).toContain('everything__echo');
    const read = await cli(['call', 'filesystem__read_text_file', `path=${join(shared, 'hello.txt')}`]);
    expect(read.stdout).toContain('hello from the allowed directory');
    const echo = await cli(['call', 'everything__echo', 'message=locked']);
    expect(echo.stdout).toContain('locked');
    const graph = await cli(['call', 'memory__read_graph']);
    expect(graph.code, graph.stderr).toBe(0);
    const prefixes = readdirSync(join(scratch.dir, 'state', 'mcptools', 'packages', 'npm')).filter(
      (name) => !name.endsWith('.lock'),
    );
    expect(prefixes).toHaveLength(3);
  });

  it('serves them through the gateway', async () => {
    const served = await startServeHttp(['--config', join(project, 'mcptools.json')], {
      env,
      timeoutMs: 180_000,
    });
    try {
      const client = await connectClient(served.url, 'modern');
      try {
        const { tools } = await client.listTools();
        const names = tools.map((tool) => tool.name);
        expect(names).toEqual(
          expect.arrayContaining([
            'memory__read_graph',
            'filesystem__list_allowed_directories',
            'everything__echo',
          ]),
        );
        const result = await client.callTool({
          name: 'everything__echo',
          arguments: { message: 'via serve' },
        });
        expect(JSON.stringify(result.content)).toContain('via serve');
      } finally {
        await client.close();
      }
    } finally {
      await served.close();
    }
  });

  it('update moves server-memory to the latest version on purpose', async () => {
    const [older, newer] = NPM_SERVER_VERSIONS.memory;
    const run = await cli(['update', 'memory', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`version: ${older} → ${newer}`);
    expect(readJson(join(project, 'mcptools-lock.json')).servers.memory.version).toBe(newer);
    const graph = await cli(['call', 'memory__read_graph']);
    expect(graph.code, graph.stderr).toBe(0);
  });

  it('a canary given as a variable never lands in a project file', async () => {
    const run = await cli([
      'add',
      'io.github.modelcontextprotocol/server-memory',
      '--as',
      'notes',
      '--env',
      `MEMORY_FILE_PATH=${join(scratch.dir, CANARY)}`,
      '--yes',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // Not secret in its record, so it is written in clear: the control for the scan below.
    expect(readFileSync(join(project, 'mcptools.json'), 'utf8')).toContain(CANARY);
    const secretRun = await cli([
      'add',
      'io.github.fixture/probe',
      '--as',
      'probe',
      '--env',
      `PROBE_API_KEY=${CANARY}-secret`,
      '--yes',
    ]);
    expect(secretRun.code, secretRun.stderr).toBe(0);
    for (const file of filesUnder(project)) {
      const text = readFileSync(file, 'latin1');
      for (const form of [
        `${CANARY}-secret`,
        Buffer.from(`${CANARY}-secret`).toString('base64').slice(0, -4),
        Buffer.from(`${CANARY}-secret`).toString('hex'),
      ])
        expect(text.includes(form), `${file} holds the secret`).toBe(false);
    }
  });

  it('a lock whose integrity no longer matches stops the start, naming both', async () => {
    const lockFile = join(project, 'mcptools-lock.json');
    const lock = readJson(lockFile);
    const real = lock.servers.everything.package.integrity;
    // A hash no content has: npm's cache is keyed by content, so another package's hash would
    // install that package (which the name check below refuses too).
    const forged = `sha512-${randomBytes(64).toString('base64')}`;
    lock.servers.everything.package.integrity = forged;
    lock.servers.everything.package.modules[
      'node_modules/@modelcontextprotocol/server-everything'
    ].integrity = forged;
    writeFileSync(lockFile, JSON.stringify(lock));
    // `servers` gives each server's whole last error when piped.
    const run = await cli(['servers']);
    expect(run.code).toBe(3);
    const output = run.stdout + run.stderr;
    expect(output).toContain(`with integrity ${forged}`);
    expect(output).toContain(`the tarball served has ${real}`);
    // The control: the other servers still start.
    expect(output).toMatch(/filesystem\s+connected/);
  });
});
