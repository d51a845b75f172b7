import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub, ServerStatus } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { fixtureEntry, type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  childPidsMatching,
  eventually,
  httpServer,
  isAlive,
  stdioFixture,
  textOf,
} from './hub-test-helpers.js';

describe('a failing server is isolated at load time', () => {
  let registry: ToolRegistry;
  let provider: McpToolHub;
  let garbageHttp: HttpFixture;

  beforeAll(async () => {
    garbageHttp = await startHttpFixture('garbage');
    registry = new ToolRegistry();
    provider = await loadMcpServers(
      {
        servers: {
          // Seven children start at once on a small machine: generous timeouts except for the hang.
          echo: stdioFixture('echo', [], { connectTimeoutMs: 30_000 }),
          missing: { type: 'stdio', command: 'mcptools-no-such-command-xyz' },
          exits: stdioFixture('exit-at-start', [], {
            env: { API_KEY: 'configuration missing' },
            connectTimeoutMs: 30_000,
          }),
          hangs: stdioFixture('hang', [], { connectTimeoutMs: 2500 }),
          garbage: stdioFixture('garbage', [], { connectTimeoutMs: 2500 }),
          garbageHttp: httpServer(garbageHttp.url, { connectTimeoutMs: 10_000 }),
          off: { ...stdioFixture('echo'), enabled: false },
        },
      },
      registry,
      { reconnect: { initialDelayMs: 60_000 } },
    );
  });

  afterAll(async () => {
    await provider?.close();
    await garbageHttp?.close();
  });

  const status = (name: string): ServerStatus => {
    const found = provider.status(name);
    if (!found) throw new Error(`no status for ${name}`);
    return found;
  };

  it('resolves with the healthy server connected and its tools working', async () => {
    expect(status('echo').state).toBe('connected');
    const result = await registry.get('echo__echo')!.execute('1', { text: 'still here' });
    expect(textOf(result)).toBe('still here');
  });

  it('reports a missing command as CONNECTION_FAILED naming the spawn error, not recoverable', () => {
    expect(status('missing')).toMatchObject({
      state: 'error',
      lastError: { code: 'CONNECTION_FAILED', recoverable: false },
    });
    expect(status('missing').lastError?.message).toMatch(/ENOENT/);
    expect(status('missing').nextRetryAt).toBeGreaterThan(Date.now());
  });

  it('reports a server that exits at start with its stderr tail, secrets redacted', () => {
    const exits = status('exits');
    expect(exits).toMatchObject({ state: 'error', lastError: { code: 'CONNECTION_FAILED' } });
    expect(exits.lastError?.message).toContain('the server process exited before the handshake completed');
    expect(exits.lastError?.message).toContain('exit-at-start fixture: fatal:');
    // The configured env value appears in the server's own stderr line and must be redacted.
    expect(exits.lastError?.message).not.toContain('configuration missing');
    expect(exits.lastError?.message).toContain('***');
  });

  it('reports a server that never answers as a connect TIMEOUT', () => {
    expect(status('hangs')).toMatchObject({ state: 'error', lastError: { code: 'TIMEOUT' } });
    expect(status('hangs').lastError?.message).toContain('connect timed out after 2500 ms');
  });

  it('reports a server that writes garbage, over stdio and over HTTP', () => {
    expect(status('garbage').state).toBe('error');
    expect(status('garbage').lastError?.message).toMatch(/timed out|transport error|JSON/i);
    expect(status('garbageHttp').state).toBe('error');
    expect(status('garbageHttp').lastError?.code).toMatch(/CONNECTION_FAILED|TIMEOUT/);
  });

  it('keeps a disabled server configured but never connects it', () => {
    expect(provider.servers()).toContain('off');
    expect(status('off').state).toBe('disabled');
    expect(registry.names({ owner: 'mcp:off' })).toEqual([]);
  });

  it('registers no tools for failed servers', () => {
    expect(registry.names().every((name) => name.startsWith('echo__'))).toBe(true);
  });

  it('listing resources of a failed server yields [] and a warning; reading throws SERVER_DISCONNECTED', async () => {
    const warnings: string[] = [];
    const off = provider.on('warning', (message) => warnings.push(message));
    expect(await provider.resources.list('missing')).toEqual([]);
    off();
    expect(warnings.join('\n')).toContain('server "missing"');
    await expect(provider.resources.read('missing', 'file:///x')).rejects.toMatchObject({
      code: 'SERVER_DISCONNECTED',
    });
    const all = await provider.resources.listAll();
    expect(all.items.length).toBe(3);
    expect(all.errors.map((error) => error.server).sort()).toEqual([
      'exits',
      'garbage',
      'garbageHttp',
      'hangs',
      'missing',
    ]);
  });

  it('names the known servers when asked about an unknown one', async () => {
    await expect(provider.resources.list('nope')).rejects.toThrow(
      /unknown server "nope"; known servers: echo, missing/,
    );
  });
});

describe('reconnecting', () => {
  it('reconnects in the era the first connect found, starting the server once', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'mcptools-starts-')), 'starts.log');
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { crash: stdioFixture('crash', ['--era', 'modern', '--start-log', log]) } },
      registry,
      { reconnect: { initialDelayMs: 100, maxDelayMs: 100, jitter: 0 } },
    );
    try {
      // A 2026-only server refuses `initialize` and is asked `server/discover` on the same process.
      expect(provider.status('crash')?.era).toBe('modern');
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
      await registry.get('crash__crash_now')!.execute('1', {});
      await waitUntil(
        () => provider.status('crash')?.state === 'connected',
        "until provider.status('crash')?.state === 'connected'",
        15_000,
      );
      expect(provider.status('crash')?.era).toBe('modern');
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
    } finally {
      await provider.close();
    }
  });
});

describe('a server that crashes while connected', () => {
  it('fails the call in flight promptly, fails later calls at once, then reconnects and re-registers', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers({ servers: { crash: stdioFixture('crash') } }, registry, {
      callTimeoutMs: 30_000,
      reconnect: { initialDelayMs: 300, maxDelayMs: 300, jitter: 0 },
    });
    try {
      const firstPid = provider.status('crash')?.pid;
      expect(firstPid).toBeGreaterThan(0);
      const changes: string[] = [];
      provider.on('toolsChanged', (server) => changes.push(server));

      const started = Date.now();
      const inFlight = await registry.get('crash__crash_now')!.execute('1', {});
      expect(inFlight.isError).toBe(true);
      expect(inFlight.details).toMatchObject({ code: 'SERVER_DISCONNECTED' });
      // Prompt: rejected on transport close, far from the 30 s call timeout.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(textOf(inFlight)).toMatch(
        /^Tool crash\/crash_now failed: server "crash" is disconnected \(reconnecting, attempt 1\)/,
      );
      expect(textOf(inFlight)).toContain('crashing in the middle of crash_now');

      const status = provider.status('crash');
      expect(status?.state).toBe('disconnected');
      expect(status?.lastError?.code).toBe('SERVER_DISCONNECTED');

      const reconnected = await eventually(() => provider.status('crash')?.state === 'connected', 15_000);
      expect(reconnected).toBe(true);
      expect(changes).toContain('crash');
      const after = await registry.get('crash__ok')!.execute('2', {});
      expect(textOf(after)).toBe('ok');
      expect(provider.status('crash')?.pid).not.toBe(firstPid);
      expect(isAlive(firstPid!)).toBe(false);
    } finally {
      await provider.close();
    }
  });

  it('returns the disconnected error at once while the server is down', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers({ servers: { crash: stdioFixture('crash') } }, registry, {
      reconnect: { initialDelayMs: 60_000, jitter: 0 },
    });
    try {
      await registry.get('crash__crash_now')!.execute('1', {});
      const result = await registry.get('crash__ok')!.execute('2', {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Tool crash\/ok failed: server "crash" is disconnected \(reconnecting, attempt 1\)/,
      );
      expect(provider.status('crash')?.nextRetryAt).toBeGreaterThan(Date.now());
    } finally {
      await provider.close();
    }
    expect(provider.status('crash')?.nextRetryAt).toBeUndefined();
  });

  it('notices an HTTP server that went away and reconnects when it is back on the same port', async () => {
    let fixture = await startHttpFixture('crash', ['--era', 'modern']);
    const port = new URL(fixture.url).port;
    const registry = new ToolRegistry();
    const provider = await loadMcpServers({ servers: { web: httpServer(fixture.url) } }, registry, {
      callTimeoutMs: 10_000,
      reconnect: { initialDelayMs: 200, maxDelayMs: 400, jitter: 0 },
    });
    try {
      expect(provider.status('web')?.era).toBe('modern');
      expect(textOf(await registry.get('web__ok')!.execute('1', {}))).toBe('ok');
      await fixture.close();
      // The dropped subscriptions/listen stream is noticed without any call.
      await waitUntil(
        () => provider.status('web')?.state !== 'connected',
        "until provider.status('web')?.state !== 'connected'",
        10_000,
      );
      const failed = await registry.get('web__ok')!.execute('2', {});
      expect(failed.isError).toBe(true);
      expect(failed.details).toMatchObject({ code: 'SERVER_DISCONNECTED' });
      expect(provider.status('web')?.state).not.toBe('connected');
      fixture = await startHttpFixture('crash', ['--era', 'modern', '--port', port]);
      await waitUntil(
        () => provider.status('web')?.state === 'connected',
        "until provider.status('web')?.state === 'connected'",
        15_000,
      );
      expect(textOf(await registry.get('web__ok')!.execute('3', {}))).toBe('ok');
    } finally {
      await provider.close();
      await fixture.close();
    }
    // Its own waits (10 s + 15 s) and two fixture starts need more than the default 30 s on a
    // loaded machine.
  }, 60_000);
});

describe('close()', () => {
  it('kills a child that ignores SIGTERM and stdin close', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      { servers: { stubborn: stdioFixture('hang', ['--stubborn'], { protocol: '2025' }) } },
      registry,
      { connectTimeoutMs: 1500, reconnect: { enabled: false } },
    );
    expect(provider.status('stubborn')?.lastError?.code).toBe('TIMEOUT');
    await provider.close();
    await waitUntil(
      () => childPidsMatching(fixtureEntry('hang')).length === 0,
      "until childPidsMatching(fixtureEntry('hang')).length === 0",
      10_000,
    );
  });

  it('is idempotent, cancels retries and leaves no child process', async () => {
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      {
        servers: {
          a: stdioFixture('echo'),
          b: stdioFixture('echo', ['--era', 'legacy']),
          gone: stdioFixture('exit-at-start'),
        },
      },
      registry,
      { reconnect: { initialDelayMs: 50, maxDelayMs: 50 } },
    );
    const pids = provider.status().flatMap((status) => (status.pid === undefined ? [] : [status.pid]));
    expect(pids, JSON.stringify(provider.status())).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    await Promise.all([provider.close(), provider.close()]);
    await provider.close();
    for (const pid of pids)
      expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(registry.names()).toEqual([]);
    const attempts = provider.status('gone')?.reconnectAttempts;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(provider.status('gone')?.reconnectAttempts).toBe(attempts);
    expect(provider.status().every((status) => status.state !== 'connected')).toBe(true);
    expect(childPidsMatching(fixtureEntry('exit-at-start'))).toEqual([]);
    expect(childPidsMatching(fixtureEntry('echo'))).toEqual([]);
  });

  it('is what Symbol.asyncDispose does', async () => {
    const registry = new ToolRegistry();
    let pid: number | undefined;
    {
      await using provider = await loadMcpServers({ servers: { a: stdioFixture('echo') } }, registry);
      pid = provider.status('a')?.pid;
      expect(pid && isAlive(pid)).toBe(true);
    }
    expect(isAlive(pid!)).toBe(false);
  });
});
