import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { eras } from './gateway-test-helpers.js';

// Gemini CLI gives a stdio server 5 s to answer `initialize` (its default `timeout`). `serve
// --stdio` answers it before its upstreams connect; `tools/list` waits for the first connect
// round, so a host's first list still holds every upstream's tools. The `slow` fixture sleeps
// 4 s before it reads its stdin: its "connected" line comes after the handshake, whatever the load.

let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-early-init-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        slow: { ...fixtureCommand('echo', ['--start-delay-ms', '4000']), connectTimeoutMs: 60_000 },
        echo: fixtureCommand('echo'),
      },
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve --stdio answers initialize before its upstreams connect', () => {
  it.each(eras)('$label: handshake first, then tools/list with the slow upstream tools', async ({ era }) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, 'serve', '--stdio', '--config', config],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client(
      { name: 'early-init-test', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } } : {},
    );
    try {
      await client.connect(transport);
      // The handshake is over while the slow server still sleeps.
      const atHandshake = stderr;
      expect(atHandshake).not.toMatch(/server slow: connected/);
      expect(atHandshake).not.toMatch(/serving \d+\/\d+ server/);
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('slow__echo');
      expect(names).toContain('echo__echo');
      const result = await client.callTool({ name: 'slow__echo', arguments: { text: 'late' } });
      expect(result.content).toEqual([{ type: 'text', text: 'late' }]);
      expect(stderr).toMatch(/serving 2\/2 server\(s\) over stdio/);
    } finally {
      await client.close();
    }
  });
});
