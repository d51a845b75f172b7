import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { eras } from './gateway-test-helpers.js';

// Gemini CLI gives a stdio server 5 s to answer `initialize` (its default `timeout`). `serve
// --stdio` answers it before its upstreams connect; `tools/list` waits for the first connect
// round, so a host's first list still holds every upstream's tools. The `slow` fixture does not
// read its stdin until the test creates its start file, once the handshake is over and the list
// request has been written: its "connected" line comes after both, whatever the load.

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-early-init-'));
});

/** A config whose `slow` server starts once `startFile` exists. */
function configStartingWhen(startFile: string): string {
  const config = join(dir, `${basename(startFile)}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        slow: { ...fixtureCommand('echo', ['--start-when', startFile]), connectTimeoutMs: 60_000 },
        echo: fixtureCommand('echo'),
      },
    }),
  );
  return config;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve --stdio answers initialize before its upstreams connect', () => {
  it.each(eras)('$label: handshake first, then tools/list with the slow upstream tools', async ({ era }) => {
    const startFile = join(dir, `start-${era}`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, 'serve', '--stdio', '--config', configStartingWhen(startFile)],
      env: SERVE_BOX_OFF,
      stderr: 'pipe',
    });
    // The slow server may start once the list request is on the gateway's stdin, ahead of it.
    const send = transport.send.bind(transport);
    transport.send = async (message) => {
      await send(message);
      if ('method' in message && message.method === 'tools/list') writeFileSync(startFile, '');
    };
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
      // The handshake is over while the slow server has not started.
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
