import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveNpmTree } from '../../src/catalog/npm-lock-tree.js';
import { parseNpxCommand } from '../../src/catalog/npx-command.js';
import type { ServerConfig, StdioServerConfig } from '../../src/config/config-types.js';
import { loadMCPServers } from '../../src/mcp/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { runCli } from '../cli/cli-process.js';
import { type CatalogFixture, startCatalogFixture } from '../fixtures/registry/catalog-fixture.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { boxUnavailable } from './box-availability.js';

const unavailable = boxUnavailable();
if (unavailable !== undefined)
  console.warn(`test/boxes/npx-box.test.ts: skipping the boxed npx servers: ${unavailable}`);

describe('the npx command lines the package runner follows', () => {
  it('reads the package, its version and the server arguments', () => {
    expect(parseNpxCommand('npx', ['-y', '@scope/server@1.2.3', '/srv/a'])).toEqual({
      name: '@scope/server',
      range: '1.2.3',
      args: ['/srv/a'],
    });
    expect(parseNpxCommand('/usr/bin/npx', ['--yes', 'plain-server', '--flag'])).toEqual({
      name: 'plain-server',
      range: 'latest',
      args: ['--flag'],
    });
    expect(parseNpxCommand('npx', ['-y', '--package=@scope/tools@^2', 'tool-a', 'x'])).toEqual({
      name: '@scope/tools',
      range: '^2',
      bin: 'tool-a',
      args: ['x'],
    });
    expect(parseNpxCommand('npx', ['-p', 'tools', 'tool-b'])).toEqual({
      name: 'tools',
      range: 'latest',
      bin: 'tool-b',
      args: [],
    });
    // Not npx: left alone.
    expect(parseNpxCommand('node', ['server.js'])).toBeUndefined();
  });

  it('says why for what it cannot install', () => {
    expect(parseNpxCommand('npx', ['-y', 'github:owner/repo'])).toMatch(/not a registry package name/);
    expect(parseNpxCommand('npx', ['-c', 'echo hi'])).toMatch(/flag "-c"/);
    expect(parseNpxCommand('npx', ['-y'])).toBe('npx names no package');
  });
});

describe.skipIf(unavailable !== undefined)('a boxed npx server, installed outside its box', () => {
  let catalog: CatalogFixture;
  let dir: string;
  const saved: Record<string, string | undefined> = {};
  /** npm as a user configured it: the fixture's registry, a cache and a state folder of this test's own. */
  let env: Record<string, string>;

  const tarballGets = () => catalog.requests.filter((request) => request.path.endsWith('.tgz')).length;
  const installedPrefixes = () =>
    readdirSync(join(dir, 'state', 'mcptools', 'packages', 'npm')).filter((name) => !name.endsWith('.lock'));

  beforeAll(async () => {
    catalog = await startCatalogFixture({ remote: false });
    dir = mkdtempSync(join(tmpdir(), 'mcptools-npx-box-'));
    env = {
      npm_config_registry: `${catalog.url}/npm/`,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_update_notifier: 'false',
      XDG_STATE_HOME: join(dir, 'state'),
    };
    for (const [name, value] of Object.entries(env)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  }, 120_000);

  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await catalog?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The boxed npx entry of the probe fixture, as a user writes it. */
  const probeEntry: StdioServerConfig = {
    type: 'stdio',
    command: 'npx',
    args: ['-y', '@fixture/probe-server@1.0.0'],
    sandbox: true,
  };

  /** Loads `entry` alone as server `name`, expects it connected, runs `check` on its tools, and closes it. */
  async function withServer(
    name: string,
    entry: ServerConfig,
    check: (registry: ToolRegistry) => Promise<void>,
  ): Promise<void> {
    const registry = new ToolRegistry();
    const hub = await loadMCPServers({ servers: { [name]: entry } }, registry);
    try {
      expect(hub.status(name)?.state, hub.status(name)?.lastError?.message).toBe('connected');
      await check(registry);
    } finally {
      await hub.close();
    }
  }

  it('starts with no network, lists its tools, and cannot write its installed folder', async () => {
    await withServer('probe', { ...probeEntry, connectTimeoutMs: 120_000 }, async (registry) => {
      expect(registry.get('probe__env')).toBeDefined();
      const call = async (tool: string, args: Record<string, unknown>) =>
        textOf(await registry.get(`probe__${tool}`)!.execute('1', args));
      // In the box: its private home, and no way to the registry it was installed from.
      expect(await call('env', { name: 'HOME' })).toBe('/tmp/home');
      const port = Number(new URL(catalog.url).port);
      expect(await call('connect', { port })).toMatch(/^error: /);
      // The installed folder is there, read-only: the server runs from it, a write fails.
      const [prefix] = installedPrefixes();
      const folder = join(dir, 'state', 'mcptools', 'packages', 'npm', prefix!);
      const script = join(folder, 'node_modules', '@fixture', 'probe-server', 'server.mjs');
      expect(await call('read_file', { path: join(folder, 'package.json') })).toContain(
        'mcptools-locked-server',
      );
      const written = await call('run', {
        command: 'sh',
        args: ['-c', `exec 2>&1; echo x >> ${script}; echo end`],
      });
      expect(written).toMatch(/Read-only file system/);
      expect(written).toMatch(/end/);
      // Control: the box's own /tmp takes a write.
      expect(
        await call('run', { command: 'sh', args: ['-c', 'exec 2>&1; echo x > /tmp/w && echo wrote'] }),
      ).toMatch(/wrote/);
    });
  }, 180_000);

  it('a second start runs what is installed, with no npm run and no request to the registry', async () => {
    const before = catalog.requests.length;
    await withServer('probe', probeEntry, async () => {
      expect(catalog.requests.length).toBe(before);
      expect(installedPrefixes()).toHaveLength(1);
    });
  }, 120_000);

  it('a locked entry (mcptools add) runs boxed from the same installed folder, through the same runner', async () => {
    const tree = await resolveNpmTree('@fixture/probe-server', '1.0.0', undefined);
    const locked: ServerConfig = {
      ...probeEntry,
      locked: {
        file: join(dir, 'mcptools-lock.json'),
        entry: 'locked',
        package: {
          registryType: 'npm',
          identifier: '@fixture/probe-server',
          version: '1.0.0',
          integrity: tree.integrity,
          modules: tree.modules,
        },
      },
    };
    await withServer('locked', locked, async (registry) => {
      expect(textOf(await registry.get('locked__env')!.execute('1', { name: 'HOME' }))).toBe('/tmp/home');
      // The lock's tree is the one the npx entry resolved to: one folder for both.
      expect(installedPrefixes()).toHaveLength(1);
    });
  }, 120_000);

  it('two processes starting the same new package at once install it once', async () => {
    const config = join(dir, 'concurrent.json');
    // A version not installed yet: a tag, resolved by npm to 1.0.1.
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          probe: {
            command: 'npx',
            args: ['-y', '@fixture/probe-server@latest'],
            connectTimeoutMs: 120_000,
          },
        },
        sandbox: true,
      }),
    );
    const tarballsBefore = tarballGets();
    const runs = await Promise.all(
      [1, 2].map(() => runCli(['tools', '--config', config], dir, { ...process.env, ...env })),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('probe__env');
    }
    const installs = runs.flatMap(
      (run) => run.stderr.match(/installing @fixture\/probe-server@1\.0\.1 outside its box/g) ?? [],
    );
    expect(installs).toHaveLength(1);
    expect(tarballGets() - tarballsBefore).toBe(1);
    expect(installedPrefixes()).toHaveLength(2);
  }, 240_000);
});
