import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapCommand } from '../../src/boxes/bwrap-command.js';
import { findCgroups } from '../../src/boxes/find-cgroups.js';
import { sandboxStatus } from '../../src/boxes/sandbox-status.js';
import { checkServerConfig, suggestFix } from '../../src/cli/doctor/suggest-fix.js';
import type { StdioServerConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { publishedServers, stdioFixture, stdioPackage, textOf } from '../mcp/hub-test-helpers.js';
import { boxUnavailable } from './box-availability.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SECRET_NAME = 'MCPTOOLS_TEST_GATEWAY_SECRET';
const SECRET = 'gateway-secret-4f0c2a9e';

const unavailable = boxUnavailable();
if (unavailable !== undefined)
  console.warn(`test/boxes/bwrap-box.test.ts: skipping the boxed servers: ${unavailable}`);

/** Host PIDs of the processes whose command line is exactly `sleep <seconds>`. */
function sleepers(seconds: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${seconds}\0`) found.push(Number(entry));
    } catch {}
  }
  return found;
}

describe.skipIf(unavailable !== undefined)('a stdio server in a bubblewrap box', () => {
  let home: string;
  let shared: string;
  let listener: Server;
  let port: number;
  let provider: McpToolHub;
  const registry = new ToolRegistry();
  const call = async (tool: string, args: Record<string, unknown>) =>
    textOf(await registry.get(tool)!.execute('1', args));

  beforeAll(async () => {
    // The operator's home, with a token vault in it, as the gateway would have it.
    home = mkdtempSync(join(tmpdir(), 'mcptools-box-home-'));
    mkdirSync(join(home, '.mcptools'));
    writeFileSync(join(home, '.mcptools', 'vault.json'), '{"token":"vault-content"}');
    shared = mkdtempSync(join(tmpdir(), 'mcptools-box-shared-'));
    writeFileSync(join(shared, 'granted.txt'), 'granted content');
    process.env[SECRET_NAME] = SECRET;
    process.env.MCPTOOLS_TEST_GRANTED = 'granted variable';
    listener = createServer((socket) => socket.end());
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    port = (listener.address() as { port: number }).port;
    // The fixture's code and node_modules are under the worktree: granted read-only.
    const boxed = (sandbox: StdioServerConfig['sandbox']): StdioServerConfig =>
      stdioFixture('box-probe', [], { sandbox, env: { ENTRY_VARIABLE: 'from the entry' } });
    provider = await loadMcpServers(
      {
        servers: {
          boxed: boxed({ read: [ROOT, shared], env: ['MCPTOOLS_TEST_GRANTED'] }),
          networked: boxed({ read: [ROOT], network: true }),
          open: stdioFixture('box-probe'),
        },
      },
      registry,
      { eraCache: false },
    );
  });

  afterAll(async () => {
    await provider?.close();
    await new Promise((done) => listener?.close(done));
    delete process.env[SECRET_NAME];
    delete process.env.MCPTOOLS_TEST_GRANTED;
    rmSync(home, { recursive: true, force: true });
    rmSync(shared, { recursive: true, force: true });
  });

  it('connects, lists its tools and answers a call', async () => {
    expect(provider.status('boxed')).toMatchObject({ state: 'connected', toolCount: 11 });
    // The entry's env reaches the box; its value is a secret, so the result shows it redacted.
    expect(await call('boxed__env', { name: 'ENTRY_VARIABLE' })).toBe('***');
    expect(await call('boxed__env', { name: 'NOT_GIVEN' })).toBe('(unset)');
  });

  it('reads what it is granted and nothing else: not the vault, not the gateway’s /proc', async () => {
    const vault = join(home, '.mcptools', 'vault.json');
    expect(await call('boxed__read_file', { path: join(shared, 'granted.txt') })).toBe('granted content');
    expect(await call('boxed__read_file', { path: vault })).toBe('error: ENOENT');
    expect(await call('boxed__read_file', { path: `/proc/${process.pid}/environ` })).toMatch(/^error: /);
    // Control: the same server unboxed reads both, so the box is what stops it.
    expect(await call('open__read_file', { path: vault })).toBe('{"token":"vault-content"}');
    expect(await call('open__read_file', { path: `/proc/${process.pid}/environ` })).toContain('PATH=');
  });

  it('sees only the variables its entry grants, never the gateway’s', async () => {
    expect(await call('boxed__env', { name: SECRET_NAME })).toBe('(unset)');
    expect(await call('boxed__env', { name: 'MCPTOOLS_TEST_GRANTED' })).toBe('granted variable');
    expect(await call('boxed__env', { name: 'HOME' })).toBe('/tmp/home');
    expect(await call('networked__env', { name: 'MCPTOOLS_TEST_GRANTED' })).toBe('(unset)');
  });

  it('cannot reach a loopback listener of the host without network, and can with it', async () => {
    expect(await call('boxed__connect', { port })).toMatch(/^error: E/);
    expect(await call('networked__connect', { port })).toBe('connected');
    expect(await call('open__connect', { port })).toBe('connected');
  });

  it('takes every process it started with it when it ends', async () => {
    const seconds = 86_400 + Math.floor(Math.random() * 100_000);
    await call('boxed__spawn_sleeper', { seconds });
    await expect.poll(() => sleepers(seconds).length, { message: 'the boxed grandchild is running' }).toBe(1);
    await provider.close();
    await expect
      .poll(() => sleepers(seconds), { message: 'no boxed grandchild outlives its box', timeout: 10_000 })
      .toEqual([]);
  });
});

describe.skipIf(unavailable !== undefined)('a box with a memory limit', () => {
  it('stops a server that allocates past maxMemoryBytes; the other servers serve on and it is started again', async () => {
    const registry = new ToolRegistry();
    const warnings: string[] = [];
    const provider = await loadMcpServers(
      {
        servers: {
          limited: stdioFixture('box-probe', [], {
            sandbox: { read: [ROOT], maxMemoryBytes: 256 * 1024 * 1024 },
          }),
          other: stdioFixture('box-probe', [], { sandbox: { read: [ROOT] } }),
        },
      },
      registry,
      { eraCache: false, reconnect: { initialDelayMs: 100, maxDelayMs: 500 } },
    );
    provider.on('warning', (message) => warnings.push(message));
    try {
      const allocate = (mb: number) => registry.get('limited__allocate')!.execute('m', { mb });
      // The control: within the limit, the allocation is made.
      expect(textOf(await allocate(32))).toBe('allocated 32 MiB');
      const past = await allocate(1024);
      expect(past.isError).toBe(true);
      expect(textOf(past)).not.toContain('allocated');
      // The host and the other server are unaffected.
      expect(textOf(await registry.get('other__env')!.execute('e', { name: 'HOME' }))).toBe('/tmp/home');
      await expect
        .poll(async () => textOf(await allocate(8)), {
          message: 'the stopped server is started again and answers',
          timeout: 30_000,
        })
        .toBe('allocated 8 MiB');
    } finally {
      await provider.close();
    }
  });

  it('runs the box command under prlimit with the data limit, and doctor names it', () => {
    const { args } = bwrapCommand(
      'bwrap',
      { command: 'node', args: ['x.js'] },
      { maxMemoryBytes: 268435456, maxOpenFiles: 64 },
    );
    expect(args.slice(args.indexOf('--'))).toEqual([
      '--',
      'prlimit',
      '--nofile=64:64',
      '--data=268435456:268435456',
      '--',
      'node',
      'x.js',
    ]);
    const status = sandboxStatus({ type: 'stdio', command: 'node', sandbox: { maxMemoryBytes: 268435456 } });
    // The box's memory is its cgroup's where there is one; RLIMIT_DATA per process stands in elsewhere.
    const cgroups = findCgroups();
    expect(status.reason).toContain(
      cgroups.available && cgroups.parents.memory !== undefined
        ? 'at most 268435456 bytes of memory in the box'
        : 'at most 268435456 bytes of data per process (no memory cgroup here)',
    );
    // The process limit is the cgroup's, by default, where this process can make cgroups.
    expect(status.reason).toContain(
      findCgroups().available ? 'at most 1024 processes in the box' : 'no process limit (no cgroup here',
    );
  });
});

describe.skipIf(unavailable !== undefined)('a published server in a box', () => {
  it('server-memory writes its memory file in its granted folder, and only there', async () => {
    const data = mkdtempSync(join(tmpdir(), 'mcptools-box-memory-'));
    const registry = new ToolRegistry();
    const memory = (file: string): StdioServerConfig =>
      stdioPackage(publishedServers.memory, [], {
        env: { MEMORY_FILE_PATH: file },
        sandbox: { read: [join(ROOT, 'node_modules')], write: [data] },
      });
    const provider = await loadMcpServers(
      {
        servers: { memory: memory(join(data, 'memory.jsonl')), outside: memory(join(ROOT, 'memory.jsonl')) },
      },
      registry,
      { eraCache: false },
    );
    try {
      const create = (server: string) =>
        registry.get(`${server}__create_entities`)!.execute('1', {
          entities: [{ name: 'box', entityType: 'test', observations: ['kept'] }],
        });
      expect((await create('memory')).isError).toBeFalsy();
      expect(readFileSync(join(data, 'memory.jsonl'), 'utf8')).toContain('"name":"box"');
      // The same server writing outside its grant is refused by the read-only bind.
      const refused = await create('outside');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/EROFS|read-only/);
    } finally {
      await provider.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe.skipIf(unavailable !== undefined)('the library’s top-level sandbox', () => {
  it('boxes the stdio servers of a configuration object, not a trusted one, and leaves the object as it was', async () => {
    const registry = new ToolRegistry();
    const config = {
      servers: {
        boxed: stdioFixture('box-probe'),
        trusted: stdioFixture('box-probe', [], { trusted: true }),
      },
      sandbox: { read: [ROOT] },
    };
    const provider = await loadMcpServers(config, registry, { eraCache: false });
    try {
      const home = async (server: string) =>
        textOf(await registry.get(`${server}__env`)!.execute('1', { name: 'HOME' }));
      expect(await home('boxed')).toBe('/tmp/home');
      expect(await home('trusted')).toBe(process.env.HOME);
      expect('sandbox' in config.servers.boxed).toBe(false);
    } finally {
      await provider.close();
    }
  });
});

describe.skipIf(unavailable !== undefined)('a boxed server that cannot start', () => {
  it('fails with what bubblewrap or the server said, and doctor suggests the grant', async () => {
    const registry = new ToolRegistry();
    // Its code is under the worktree, which the box does not show.
    const server = stdioFixture('box-probe', [], { sandbox: true, connectTimeoutMs: 20_000 });
    const provider = await loadMcpServers({ servers: { hidden: server } }, registry, { eraCache: false });
    try {
      const status = provider.status('hidden');
      expect(status?.state).toBe('error');
      expect(suggestFix(server, checkServerConfig(server), status)).toMatch(/"sandbox\.read"/);
    } finally {
      await provider.close();
    }
  });
});

describe('a box asked for without bubblewrap', () => {
  it('refuses the server with a message naming it and the fix, never runs it unboxed', async () => {
    const saved = process.env.PATH;
    const empty = mkdtempSync(join(tmpdir(), 'mcptools-no-bwrap-'));
    process.env.PATH = empty;
    const registry = new ToolRegistry();
    let provider: McpToolHub | undefined;
    const boxed = stdioFixture('box-probe', [], { sandbox: true });
    try {
      provider = await loadMcpServers(
        {
          servers: {
            boxed: stdioFixture('box-probe', [], { sandbox: true }),
            open: stdioFixture('box-probe'),
          },
        },
        registry,
        { eraCache: false },
      );
      expect(provider.status('boxed')?.state).toBe('error');
      expect(provider.status('boxed')?.lastError?.message).toMatch(
        /server "boxed" is configured with "sandbox" but bubblewrap \("bwrap"\) was not found on PATH/,
      );
      expect(registry.get('boxed__env')).toBeUndefined();
      expect(suggestFix(boxed, checkServerConfig(boxed), provider.status('boxed'))).toMatch(
        /apt-get install bubblewrap/,
      );
      // Control: the unboxed server beside it runs.
      expect(provider.status('open')?.state).toBe('connected');
    } finally {
      process.env.PATH = saved;
      await provider?.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
