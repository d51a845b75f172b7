import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { eras } from './gateway-test-helpers.js';
import { CLI_BIN } from './serve-cli.js';

// The SDK v2 client in both eras against the built `mcptools serve --stdio` (the HTTP face in
// both eras is covered by gateway-serving.test.ts).
let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-serve-stdio-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(config, JSON.stringify({ servers: { echo: fixtureCommand('echo') } }));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(eras)('mcptools serve --stdio to a $label', ({ era }) => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    client = new Client(
      { name: 'serve-stdio-test', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'serve', '--stdio', '--config', config],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
  }, 90_000);

  afterAll(async () => {
    await client?.close();
  });

  it('negotiates the era it asked for', () => {
    expect(client.getProtocolEra()).toBe(era);
  });

  it('lists, calls, reads and renders through one stdio entry', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo__echo', 'echo__add']));
    const add = await client.callTool({ name: 'echo__add', arguments: { a: 1, b: 2 } });
    expect(add.structuredContent).toEqual({ sum: 3 });
    const read = await client.readResource({ uri: 'mcptools://echo/echo://static/hello' });
    expect(read.contents).toEqual([
      { uri: 'mcptools://echo/echo://static/hello', mimeType: 'text/plain', text: 'hello' },
    ]);
    const prompt = await client.getPrompt({ name: 'echo__greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
  });

  it('writes its logs to stderr, never into the protocol stream', () => {
    expect(stderr).toContain('mcptools serve:');
  });
});
