import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/auth/file-token-store.js';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { TokenStore } from '../../src/auth/token-store.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { defaultVaultPath } from '../../src/paths/default-vault-path.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import {
  followAuthorizationUrl,
  type OAuthFixture,
  startOAuthFixture,
} from '../fixtures/oauth/oauth-fixture.js';

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CHILD = fileURLToPath(new URL('../fixtures/oauth/refresh-child.ts', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcptools-vault-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('defaultVaultPath', () => {
  it('respects XDG_CONFIG_HOME, else ~/.config', () => {
    expect(defaultVaultPath({ XDG_CONFIG_HOME: '/x/config' })).toBe('/x/config/mcptools/oauth-vault.json');
    expect(defaultVaultPath({})).toMatch(/\.config\/mcptools\/oauth-vault\.json$/);
  });
});

describe.each([
  ['FileTokenStore', () => new FileTokenStore(join(dir, `v-${Math.random()}`, 'vault.json'))],
  ['MemoryTokenStore', () => new MemoryTokenStore()],
])('%s', (_name, create: () => TokenStore) => {
  it('keeps entries per server URL; an update returning undefined deletes', async () => {
    const store = create();
    await store.update('https://a.example/mcp', () => ({ serverUrl: 'https://a.example/mcp', updatedAt: 1 }));
    await store.update('https://b.example/mcp', () => ({ serverUrl: 'https://b.example/mcp', updatedAt: 2 }));
    expect((await store.list()).map((entry) => entry.serverUrl).sort()).toEqual([
      'https://a.example/mcp',
      'https://b.example/mcp',
    ]);
    await store.update('https://a.example/mcp', () => undefined);
    expect(await store.get('https://a.example/mcp')).toBeUndefined();
    expect((await store.get('https://b.example/mcp'))?.updatedAt).toBe(2);
  });

  it('serializes concurrent updates: none is lost', async () => {
    const store = create();
    const url = 'https://c.example/mcp';
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.update(url, (entry) => ({ serverUrl: url, updatedAt: (entry?.updatedAt ?? 0) + 1 })),
      ),
    );
    expect((await store.get(url))?.updatedAt).toBe(20);
  });
});

describe('the vault file', () => {
  it('is created 0600 in a 0700 directory and replaced atomically (no temporary file left)', async () => {
    const path = join(dir, 'mode', 'vault.json');
    const store = new FileTokenStore(path);
    await store.update('https://a.example/mcp', () => ({ serverUrl: 'https://a.example/mcp', updatedAt: 1 }));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'mode'))).mode & 0o777).toBe(0o700);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(join(dir, 'mode'))).toEqual(['vault.json']);
  });

  it('breaks a stale lock left by a crashed process', async () => {
    const path = join(dir, 'stale', 'vault.json');
    const store = new FileTokenStore(path);
    await store.update('https://a.example/mcp', () => ({ serverUrl: 'https://a.example/mcp', updatedAt: 1 }));
    const { mkdir, utimes } = await import('node:fs/promises');
    await mkdir(`${path}.lock`);
    const old = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, old, old);
    await store.update('https://a.example/mcp', (entry) => ({
      serverUrl: 'https://a.example/mcp',
      updatedAt: (entry?.updatedAt ?? 0) + 1,
    }));
    expect((await store.get('https://a.example/mcp'))?.updatedAt).toBe(2);
  });

  it('a corrupt vault gets an error that quotes none of its content', async () => {
    const path = join(dir, 'corrupt', 'vault.json');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'corrupt'));
    await writeFile(path, '{"servers": {"x": "at-SECRETTOKEN', { mode: 0o600 });
    const error = await new FileTokenStore(path).list().catch((caught: unknown) => caught as Error);
    expect(String(error)).toContain('not valid JSON');
    expect(String(error)).not.toContain('SECRETTOKEN');
  });
});

describe('two processes refreshing the same server at once', () => {
  let fixture: OAuthFixture;
  beforeAll(async () => {
    fixture = await startOAuthFixture({ canary: 'CONCUR' });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('refresh once, both end with the newest token, the vault stays valid', async () => {
    const path = join(dir, 'concurrent', 'vault.json');
    const store = new FileTokenStore(path);
    const provider = await loadMcpServers(
      { servers: { remote: { type: 'streamable-http', url: fixture.mcpUrl } } },
      new ToolRegistry(),
      { tokenStore: store, onAuthorizationUrl: followAuthorizationUrl, reconnect: { enabled: false } },
    );
    expect(provider.status('remote')?.state).toBe('connected');
    await provider.close();
    // Make the access token look expired, so that each process refreshes before using it.
    await store.update(fixture.mcpUrl, (entry) => entry && { ...entry, expiresAt: Date.now() - 1000 });
    const refreshes = fixture.state.counts.refresh;
    const refused = fixture.state.counts.refused;
    const go = join(dir, 'concurrent', 'go');
    const children = [0, 1].map(
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', TSX_LOADER, CHILD, path, fixture.mcpUrl, go], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (chunk) => {
            out += chunk;
          });
          child.stderr.on('data', (chunk) => {
            err += chunk;
          });
          child.on('exit', (code) =>
            code === 0 ? resolve(out.trim()) : reject(new Error(`child exited ${code}: ${err}`)),
          );
        }),
    );
    const { readdir } = await import('node:fs/promises');
    // Both children loaded and polling for the go file: then they refresh at the same moment.
    await expect
      .poll(
        async () =>
          (await readdir(join(dir, 'concurrent'))).filter((name) => name.startsWith('go.ready.')).length,
        {
          timeout: 20_000,
        },
      )
      .toBe(2);
    await writeFile(go, '');
    const hashes = await Promise.all(children);
    const vault = JSON.parse(await readFile(path, 'utf8')) as {
      servers: Record<string, { tokens: { access_token: string } }>;
    };
    const newest = vault.servers[fixture.mcpUrl]?.tokens.access_token ?? '';
    const newestHash = createHash('sha256').update(newest).digest('hex');
    expect(hashes).toEqual([newestHash, newestHash]);
    expect(fixture.state.counts.refresh).toBe(refreshes + 1);
    expect(fixture.state.counts.refused).toBe(refused);
  }, 30_000);
});
