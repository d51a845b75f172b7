import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxStatus } from '../../src/boxes/sandbox-status.js';
import { resolveNpmTree } from '../../src/catalog/npm-lock-tree.js';
import { parseRunnerCommand } from '../../src/catalog/runner-command.js';
import type { ServerConfig, StdioServerConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { findOnPath } from '../../src/paths/find-on-path.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { runCli } from '../cli/cli-process.js';
import { type CatalogFixture, startCatalogFixture } from '../fixtures/registry/catalog-fixture.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { boxUnavailable } from './box-availability.js';

const unavailable = boxUnavailable();
if (unavailable !== undefined)
  console.warn(`test/boxes/npx-box.test.ts: skipping the boxed npx servers: ${unavailable}`);

describe('the package runner command lines (npx, npm exec, pnpm dlx, bunx) the package runner follows', () => {
  it('reads the package, its version and the server arguments of npx', () => {
    expect(parseRunnerCommand('npx', ['-y', '@scope/server@1.2.3', '/srv/a'])).toEqual({
      runner: 'npx',
      name: '@scope/server',
      range: '1.2.3',
      args: ['/srv/a'],
    });
    expect(parseRunnerCommand('/usr/bin/npx', ['--yes', 'plain-server', '--flag'])).toEqual({
      runner: 'npx',
      name: 'plain-server',
      range: 'latest',
      args: ['--flag'],
    });
    expect(parseRunnerCommand('npx', ['-y', '--package=@scope/tools@^2', 'tool-a', 'x'])).toEqual({
      runner: 'npx',
      name: '@scope/tools',
      range: '^2',
      bin: 'tool-a',
      args: ['x'],
    });
    expect(parseRunnerCommand('npx', ['-p', 'tools', 'tool-b'])).toEqual({
      runner: 'npx',
      name: 'tools',
      range: 'latest',
      bin: 'tool-b',
      args: [],
    });
    // Not a package runner: left alone.
    expect(parseRunnerCommand('node', ['server.js'])).toBeUndefined();
    expect(parseRunnerCommand('npm', ['run', 'start'])).toBeUndefined();
    expect(parseRunnerCommand('pnpm', ['exec', 'server'])).toBeUndefined();
    expect(parseRunnerCommand('bun', ['server.ts'])).toBeUndefined();
  });

  it('reads npm exec (and npm x), with its flags before the package or after a --', () => {
    expect(
      parseRunnerCommand('npm', ['exec', '--yes', '--', '@scope/server@1.2.3', '--root', '/srv']),
    ).toEqual({
      runner: 'npm exec',
      name: '@scope/server',
      range: '1.2.3',
      args: ['--root', '/srv'],
    });
    expect(
      parseRunnerCommand('/usr/bin/npm', ['x', '-y', '--package=tools@2.0.0', '--', 'tool-a', '-v']),
    ).toEqual({
      runner: 'npm exec',
      name: 'tools',
      range: '2.0.0',
      bin: 'tool-a',
      args: ['-v'],
    });
    expect(parseRunnerCommand('npm', ['exec', 'plain-server', 'stdio'])).toEqual({
      runner: 'npm exec',
      name: 'plain-server',
      range: 'latest',
      args: ['stdio'],
    });
  });

  it('reads pnpm dlx (and pnpx) and bunx (and bun x)', () => {
    expect(parseRunnerCommand('pnpm', ['dlx', '@scope/server@^1', '/srv/a'])).toEqual({
      runner: 'pnpm dlx',
      name: '@scope/server',
      range: '^1',
      args: ['/srv/a'],
    });
    expect(parseRunnerCommand('pnpm', ['dlx', '--package', 'tools@1.0.0', 'tool-a', '--flag'])).toEqual({
      runner: 'pnpm dlx',
      name: 'tools',
      range: '1.0.0',
      bin: 'tool-a',
      args: ['--flag'],
    });
    expect(parseRunnerCommand('pnpx', ['plain-server'])).toMatchObject({
      runner: 'pnpm dlx',
      name: 'plain-server',
    });
    expect(parseRunnerCommand('bunx', ['-p', 'tools@next', 'tool-b', '--flag'])).toEqual({
      runner: 'bunx',
      name: 'tools',
      range: 'next',
      bin: 'tool-b',
      args: ['--flag'],
    });
    expect(parseRunnerCommand('bun', ['x', 'plain-server@1.0.0'])).toEqual({
      runner: 'bunx',
      name: 'plain-server',
      range: '1.0.0',
      args: [],
    });
  });

  it('says why for what it cannot install, naming the fix', () => {
    expect(parseRunnerCommand('npx', ['-y', 'github:owner/repo'])).toMatch(/not a registry package name/);
    expect(parseRunnerCommand('npx', ['-c', 'echo hi'])).toMatch(/npx's flag "-c"/);
    expect(parseRunnerCommand('npx', ['-y'])).toBe('npx names no package');
    expect(parseRunnerCommand('npm', ['exec', '--', 'npm:other@1'])).toMatch(/not a registry package name/);
    expect(parseRunnerCommand('npm', ['exec', '--call', 'echo hi'])).toMatch(/npm exec's flag "--call"/);
    // Without `--`, npm takes a later flag as its own: the fix is named.
    expect(parseRunnerCommand('npm', ['exec', 'plain-server', '--root', '/srv'])).toBe(
      'npm exec reads "--root" as its own flag, not the server\'s: put "--" before the package (npm exec -- plain-server …)',
    );
    expect(parseRunnerCommand('pnpm', ['dlx', './local-folder'])).toMatch(/not a registry package name/);
    expect(parseRunnerCommand('pnpm', ['dlx', '-c', 'echo hi'])).toMatch(/pnpm dlx's flag "-c"/);
    expect(parseRunnerCommand('bunx', ['--bun', 'plain-server'])).toMatch(/bunx's flag "--bun"/);
    expect(parseRunnerCommand('bunx', ['https://example.test/server.tgz'])).toMatch(
      /not a registry package name/,
    );
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
    const hub = await loadMcpServers({ servers: { [name]: entry } }, registry);
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

  it.each([
    [
      'npm exec',
      {
        command: 'npm',
        args: ['exec', '--yes', '--package=@fixture/probe-server@1.0.0', '--', 'fixture-probe-server'],
      },
    ],
    ['pnpm dlx', { command: 'pnpm', args: ['dlx', '@fixture/probe-server@1.0.0'] }],
    ['bunx', { command: 'bunx', args: ['-p', '@fixture/probe-server@1.0.0', 'fixture-probe-server'] }],
  ])(
    'a boxed %s entry runs through the same runner, from the folder npx installed',
    async (_runner, line) => {
      // pnpm and Bun need not be installed: the runner installs with npm and runs the bin with Node.
      const before = catalog.requests.length;
      await withServer('runner', { type: 'stdio', ...line, sandbox: true }, async (registry) => {
        expect(textOf(await registry.get('runner__env')!.execute('1', { name: 'HOME' }))).toBe('/tmp/home');
        expect(catalog.requests.length).toBe(before);
        expect(installedPrefixes()).toHaveLength(1);
      });
    },
    120_000,
  );

  it('doctor names the runner whose package is installed outside the box', () => {
    const reason = (command: string, args: string[]) =>
      sandboxStatus({ type: 'stdio', command, args, sandbox: true }).reason;
    expect(reason('npm', ['exec', '--', 'x'])).toMatch(/its npm exec package installed outside the box/);
    expect(reason('pnpm', ['dlx', 'x'])).toMatch(/its pnpm dlx package installed outside the box/);
    expect(reason('bunx', ['x'])).toMatch(/its bunx package installed outside the box/);
    // Control: pnpm exec runs what the project installed, not a package.
    expect(reason('pnpm', ['exec', 'x'])).not.toMatch(/installed outside the box/);
  });

  it('a boxed runner entry whose spec is no registry package is refused, naming the fix', async () => {
    const registry = new ToolRegistry();
    const entry: ServerConfig = {
      type: 'stdio',
      command: 'pnpm',
      args: ['dlx', 'github:owner/repo'],
      sandbox: true,
    };
    const hub = await loadMcpServers({ servers: { remote: entry } }, registry);
    try {
      expect(hub.status('remote')?.state).toBe('error');
      expect(hub.status('remote')?.lastError?.message).toMatch(
        /server "remote" is boxed .*"github:owner\/repo" is not a registry package name.*set "sandbox": false on this server/,
      );
      // Control: the same runner with a registry package starts.
      await withServer('ok', { ...entry, args: ['dlx', '@fixture/probe-server@1.0.0'] }, async (tools) => {
        expect(tools.get('ok__env')).toBeDefined();
      });
    } finally {
      await hub.close();
    }
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

const pnpm = findOnPath('pnpm');
if (pnpm === undefined)
  console.warn('test/boxes/npx-box.test.ts: skipping the unboxed pnpm dlx pass-through: pnpm is not on PATH');

describe.skipIf(pnpm === undefined)('an unboxed pnpm dlx entry', () => {
  let catalog: CatalogFixture;
  let dir: string;

  beforeAll(async () => {
    catalog = await startCatalogFixture({ remote: false });
    dir = mkdtempSync(join(tmpdir(), 'mcptools-pnpm-dlx-'));
  }, 120_000);

  afterAll(async () => {
    await catalog?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs through pnpm itself, as configured, not through the package runner', async () => {
    const registry = new ToolRegistry();
    const entry: ServerConfig = {
      type: 'stdio',
      command: pnpm!,
      args: ['dlx', '@fixture/probe-server@1.0.0'],
      // pnpm's registry setting (pnpm 11 and later no longer read npm's); its store and cache are this test's own.
      env: {
        pnpm_config_registry: `${catalog.url}/npm/`,
        npm_config_registry: `${catalog.url}/npm/`,
        XDG_CACHE_HOME: join(dir, 'cache'),
        XDG_DATA_HOME: join(dir, 'data'),
        XDG_STATE_HOME: join(dir, 'state'),
      },
      sandbox: false,
      connectTimeoutMs: 120_000,
    };
    const hub = await loadMcpServers({ servers: { dlx: entry } }, registry);
    try {
      expect(hub.status('dlx')?.state, hub.status('dlx')?.lastError?.message).toBe('connected');
      // Not boxed: the server sees the gateway's home, and pnpm fetched the package itself.
      expect(textOf(await registry.get('dlx__env')!.execute('1', { name: 'HOME' }))).not.toBe('/tmp/home');
      expect(catalog.requests.some((request) => request.path.endsWith('.tgz'))).toBe(true);
    } finally {
      await hub.close();
    }
  }, 180_000);
});
