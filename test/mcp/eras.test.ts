import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProtocolMode, StdioServerConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { eraKey } from '../../src/mcp/era-memory.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { httpServer, stdioFixture, textOf } from './hub-test-helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'mcptools-eras-'));
let counter = 0;

/** A crash fixture that logs each start to its own file; `starts()` counts them. */
function countedServer(args: string[], extra: Partial<StdioServerConfig> = {}) {
  const log = join(directory, `starts-${++counter}.log`);
  writeFileSync(log, '');
  const config = stdioFixture('crash', [...args, '--start-log', log], extra);
  const starts = () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).length;
  return { config, starts };
}

async function connectOnce(config: StdioServerConfig, eraCache: string | false = false) {
  const registry = new ToolRegistry();
  const provider = await loadMcpServers({ servers: { s: config } }, registry, {
    connectTimeoutMs: 60_000,
    reconnect: { enabled: false },
    eraCache,
  });
  return { registry, provider };
}

const cases: { label: string; args: string[]; protocol?: ProtocolMode; era: 'legacy' | 'modern' }[] = [
  { label: 'a 2025-only server', args: ['--era', 'legacy'], era: 'legacy' },
  { label: 'a server of both eras', args: [], era: 'legacy' },
  {
    label: 'a 2026-only server (refuses initialize; discover on the same process)',
    args: ['--era', 'modern'],
    era: 'modern',
  },
  {
    label: 'a server of both eras, protocol 2026-07-28-first',
    args: [],
    protocol: '2026-07-28-first',
    era: 'modern',
  },
  {
    label: 'a 2025-only server, protocol 2026-07-28-first',
    args: ['--era', 'legacy'],
    protocol: '2026-07-28-first',
    era: 'legacy',
  },
  { label: 'a server of both eras pinned to 2026-07-28', args: [], protocol: '2026-07-28', era: 'modern' },
  { label: 'a server of both eras pinned to 2025', args: [], protocol: '2025', era: 'legacy' },
];

describe('one process per stdio server', { timeout: 120_000 }, () => {
  it.each(cases)('starts $label once, in the era it speaks', async ({ args, protocol, era }) => {
    const server = countedServer(args, protocol === undefined ? {} : { protocol });
    const { registry, provider } = await connectOnce(server.config);
    try {
      // The era by its name, and by its deprecated one (kept one release).
      const protocolEra = era === 'legacy' ? '2025' : '2026-07-28';
      expect(provider.status('s')).toMatchObject({ state: 'connected', protocolEra, era });
      expect(server.starts()).toBe(1);
      expect(textOf(await registry.get('s__ok')!.execute('1', {}))).toBe('ok');
    } finally {
      await provider.close();
    }
  });

  it('spawns once per reconnect, in the era found before', async () => {
    const server = countedServer(['--era', 'modern']);
    const registry = new ToolRegistry();
    const provider = await loadMcpServers({ servers: { s: server.config } }, registry, {
      reconnect: { initialDelayMs: 100, maxDelayMs: 100, jitter: 0 },
      eraCache: false,
    });
    try {
      expect(server.starts()).toBe(1);
      await registry.get('s__crash_now')!.execute('1', {});
      await waitUntil(
        () => provider.status('s')?.state === 'connected',
        "until provider.status('s')?.state === 'connected'",
        15_000,
      );
      expect(provider.status('s')?.era).toBe('modern');
      expect(server.starts()).toBe(2);
    } finally {
      await provider.close();
    }
  });

  it('starts a server that exits on the server/discover probe once more, in the 2025 era, and remembers it', async () => {
    const cache = join(directory, 'exit-on-discover.json');
    const server = countedServer(['--era', 'legacy', '--exit-on-discover'], { protocol: '2026-07-28-first' });
    const first = await connectOnce(server.config, cache);
    try {
      expect(first.provider.status('s')).toMatchObject({ state: 'connected', era: 'legacy' });
      expect(server.starts()).toBe(2);
    } finally {
      await first.provider.close();
    }
    const second = await connectOnce(server.config, cache);
    try {
      expect(second.provider.status('s')).toMatchObject({ state: 'connected', era: 'legacy' });
      expect(server.starts()).toBe(3);
    } finally {
      await second.provider.close();
    }
  });
});

describe('the era cache file', { timeout: 120_000 }, () => {
  it('keeps each era by a hash of the command line, never the command line itself', async () => {
    const cache = join(directory, 'kept.json');
    const server = countedServer(['--era', 'modern', '--token', 'sk-secret-value']);
    const { provider } = await connectOnce(server.config, cache);
    await provider.close();
    const text = readFileSync(cache, 'utf8');
    expect(text).not.toContain('sk-secret-value');
    expect(text).not.toContain('crash');
    const file = JSON.parse(text) as { servers: Record<string, { era: string }> };
    expect(file.servers[eraKey(server.config, '2025-first')]?.era).toBe('2026-07-28');
  });

  it("reads an era an earlier version wrote by the SDK's word", async () => {
    const cache = join(directory, 'earlier.json');
    // Without the remembered 2025 era this server is started twice: it exits on the probe.
    const server = countedServer(['--era', 'legacy', '--exit-on-discover'], { protocol: '2026-07-28-first' });
    const key = eraKey(server.config, '2026-07-28-first');
    writeFileSync(
      cache,
      JSON.stringify({ version: 1, servers: { [key]: { era: 'legacy', at: Date.now() } } }),
    );
    const { provider } = await connectOnce(server.config, cache);
    try {
      expect(provider.status('s')).toMatchObject({ state: 'connected', protocolEra: '2025' });
      expect(server.starts()).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it('drops a remembered era the server no longer speaks, on the same process', async () => {
    const cache = join(directory, 'stale.json');
    const server = countedServer(['--era', 'legacy']);
    const key = eraKey(server.config, '2025-first');
    // Written by an earlier version, which named the era by the SDK's word (`modern`).
    writeFileSync(
      cache,
      JSON.stringify({ version: 1, servers: { [key]: { era: 'modern', at: Date.now() } } }),
    );
    const { provider } = await connectOnce(server.config, cache);
    try {
      expect(provider.status('s')).toMatchObject({ state: 'connected', era: 'legacy' });
      expect(server.starts()).toBe(1);
    } finally {
      await provider.close();
    }
    const file = JSON.parse(readFileSync(cache, 'utf8')) as { servers: Record<string, { era: string }> };
    expect(file.servers[key]?.era).toBe('2025');
  });
});

describe('eras over HTTP', { timeout: 120_000 }, () => {
  const fixtures: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(fixtures.map((fixture) => fixture.close()));
  });

  it('connects a 2026-only HTTP server after it refuses initialize, and a both-era one with initialize', async () => {
    const modern = await startHttpFixture('crash', ['--era', 'modern']);
    const both = await startHttpFixture('crash');
    fixtures.push(modern, both);
    const provider = await loadMcpServers(
      { servers: { modern: httpServer(modern.url), both: httpServer(both.url) } },
      new ToolRegistry(),
      { reconnect: { enabled: false }, eraCache: false },
    );
    try {
      expect(provider.status('modern')).toMatchObject({
        state: 'connected',
        protocolEra: '2026-07-28',
        era: 'modern',
      });
      expect(provider.status('both')).toMatchObject({ state: 'connected', era: 'legacy' });
    } finally {
      await provider.close();
    }
  });

  it.each(['2025-first', '2026-07-28-first'] as const)(
    'names the network cause when a %s connect cannot reach the server',
    async (protocol) => {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      const provider = await loadMcpServers(
        {
          servers: {
            gone: httpServer(`http://127.0.0.1:${port}/mcp`, { type: 'streamable-http', protocol }),
          },
        },
        new ToolRegistry(),
        { reconnect: { enabled: false }, eraCache: false },
      );
      try {
        const error = provider.status('gone')?.lastError;
        expect(error?.code).toBe('CONNECTION_FAILED');
        expect(error?.message).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
        expect(error?.message).not.toMatch(/probe failed/);
      } finally {
        await provider.close();
      }
    },
  );
});
