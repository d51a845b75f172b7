import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { freePort, type ServeRun, scratchFolder, startServe } from './recursion-processes.js';

/*
 * The host the `serve` banner sends Claude Desktop users to. Claude Desktop's config
 * takes only commands, so it starts `npx -y mcp-remote http://127.0.0.1:PORT/mcp` and speaks MCP
 * on that child's stdio. Here the real mcp-remote (a dev dependency) is started the same way, its
 * stdio driven by the SDK v2 client, against the built `mcptools serve --http`.
 */

const mcpRemote = fileURLToPath(new URL('../../node_modules/mcp-remote/dist/proxy.js', import.meta.url));
const remoteVersion = (
  JSON.parse(
    readFileSync(new URL('../../node_modules/mcp-remote/package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  }
).version;
const { folder } = scratchFolder('mcptools-hosts-remote-');
const CLIENT = 'hosts-mcp-remote-test';

let served: ServeRun;
let home: string;

beforeAll(async () => {
  const dir = folder('served', { 'mcptools.json': { servers: { echo: fixtureCommand('echo') } } });
  // mcp-remote keeps OAuth state under ~/.mcp-auth: a HOME of its own, so no user's state is read.
  home = folder('home', {});
  served = await startServe(dir, await freePort());
}, 90_000);

afterAll(async () => {
  if (served) expect(await served.stop()).toBe(0);
});

/** The SDK client on the stdio of `mcp-remote URL`, as Claude Desktop starts it. */
async function throughMcpRemote(era: 'legacy' | 'modern'): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mcpRemote, served.url],
    env: { PATH: process.env.PATH ?? '', HOME: home },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: CLIENT, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } } : {},
  );
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nmcp-remote stderr:\n${stderr}`);
  }
  return { client, stderr: () => stderr };
}

describe.each([
  { era: 'legacy' as const, label: 'a 2025-era client' },
  { era: 'modern' as const, label: 'a 2026-07-28 client' },
])('mcp-remote → serve --http, driven by $label', { timeout: 120_000 }, ({ era }) => {
  it('initializes, lists tools and calls one', async () => {
    const { client, stderr } = await throughMcpRemote(era);
    try {
      expect(client.getServerVersion()?.name, stderr()).toBe('mcptools');
      expect(client.getProtocolEra()).toBe(era);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo__echo');
      const called = await client.callTool({ name: 'echo__echo', arguments: { text: `bridged ${era}` } });
      expect(textOf(called as { content: { type: string }[] })).toBe(`bridged ${era}`);
      const added = await client.callTool({ name: 'echo__add', arguments: { a: 2, b: 3 } });
      expect(added.structuredContent).toEqual({ sum: 5 });
    } finally {
      await client.close();
    }
    // serve logged the client by the name mcp-remote passed on: it appends its own to a 2025-era
    // client's `initialize`, and forwards a 2026-07-28 client's `_meta` clientInfo as it is.
    const line =
      era === 'legacy'
        ? `client ${CLIENT} (via mcp-remote ${remoteVersion}) 1.0.0 connected (2025 session)`
        : `client ${CLIENT} 1.0.0 connected (2026-07-28)`;
    expect(served.stderr()).toContain(line);
  });
});
