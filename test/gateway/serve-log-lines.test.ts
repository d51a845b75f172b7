import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/cli/demo/resolve-package-bin.js';
import { startServeHttp } from './start-serve-http.js';

const temp = mkdtempSync(join(tmpdir(), 'mcptools-log-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** One client's ordinary use: every list, then calls. */
async function use(url: string, mode: 'auto' | 'legacy', calls: number): Promise<void> {
  const client = new Client(
    { name: `log-${mode}`, version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    for (let round = 0; round < 3; round++) {
      await client.listTools();
      await client.listPrompts();
      await client.listResources();
      await client.listResourceTemplates();
    }
    for (let call = 0; call < calls; call++)
      await client.callTool({ name: 'memory__search_nodes', arguments: { query: `call ${call}` } });
  } finally {
    await client.close();
  }
}

describe('serve --http log', () => {
  it('says which clients connected, and nothing per list or call request from them', async () => {
    const config = join(temp, 'mcptools.json');
    // server-memory offers tools only: asking it for prompts or resources is what used to log a
    // line each time (the SDK's "server does not advertise …").
    const memory = {
      command: process.execPath,
      args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(temp, 'memory.jsonl') },
    };
    writeFileSync(config, JSON.stringify({ servers: { memory } }));
    const served = await startServeHttp(['--config', config]);
    try {
      const before = served.stderr().split('\n').filter(Boolean).length;
      await Promise.all([use(served.url, 'auto', 40), use(served.url, 'legacy', 40)]);
      const during = served.stderr().split('\n').filter(Boolean).slice(before);
      // 2 × (12 list requests + 40 calls) = 104 requests: a line per client connecting, no more.
      expect(during.sort()).toEqual([
        'mcptools serve: client log-auto 1.0.0 connected (2026-07-28)',
        'mcptools serve: client log-legacy 1.0.0 connected (2025 session)',
      ]);
      expect(served.stderr()).not.toMatch(/does not advertise/);
    } finally {
      await served.close();
    }
  });
});
