import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { CLI_BIN, type ServedHttp, startServeHttp } from './start-serve-http.js';

// A third-party client: the MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`, built
// on the v1 SDK client, 2025 era) against the built `mcptools serve`, over stdio and HTTP.
const INSPECTOR = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/inspector-cli/build/index.js',
);

/** Runs the inspector CLI; parses its JSON answer. */
function inspect(target: string[], method: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [INSPECTOR, ...target, '--method', ...method],
      // The inspector finds its own package.json relative to the working directory.
      { cwd: dirname(INSPECTOR), timeout: 90_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`inspector-cli ${method.join(' ')} failed: ${error.message}\n${stderr}`));
        else {
          try {
            resolve(JSON.parse(stdout) as Record<string, unknown>);
          } catch {
            reject(new Error(`inspector-cli printed no JSON:\n${stdout}\n${stderr}`));
          }
        }
      },
    );
  });
}

let dir: string;
let config: string;
let http: ServedHttp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-inspector-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(config, JSON.stringify({ servers: { echo: fixtureCommand('echo') } }));
  http = await startServeHttp(['--config', config]);
});

afterAll(async () => {
  await http?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  {
    transport: 'serve --stdio',
    target: () => [process.execPath, CLI_BIN, 'serve', '--stdio', '--config', config],
  },
  { transport: 'serve --http', target: () => [http.url, '--transport', 'http'] },
])('MCP Inspector CLI against $transport', ({ target }) => {
  it('tools/list shows the namespaced tools with their schemas', async () => {
    const { tools } = (await inspect(target(), ['tools/list'])) as {
      tools: { name: string; inputSchema: unknown }[];
    };
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['echo__echo', 'echo__add', 'echo__mixed']),
    );
    expect(tools.find((tool) => tool.name === 'echo__echo')?.inputSchema).toMatchObject({
      properties: { text: { type: 'string' } },
    });
  }, 120_000);

  it('tools/call returns the upstream result', async () => {
    const result = await inspect(target(), [
      'tools/call',
      '--tool-name',
      'echo__add',
      '--tool-arg',
      'a=2',
      'b=40',
    ]);
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(result.content).toEqual([{ type: 'text', text: '42' }]);
  }, 120_000);

  it('resources/read reads an upstream resource through its gateway URI', async () => {
    const { contents } = (await inspect(target(), [
      'resources/read',
      '--uri',
      'mcptools://echo/echo://static/unicode',
    ])) as { contents: { uri: string; text: string }[] };
    expect(contents).toEqual([
      { uri: 'mcptools://echo/echo://static/unicode', mimeType: 'text/plain', text: 'Grüße € 日本語 🎉' },
    ]);
  }, 120_000);

  it('prompts/get renders an upstream prompt under its server name', async () => {
    const { messages } = (await inspect(target(), [
      'prompts/get',
      '--prompt-name',
      'echo__greet',
      '--prompt-args',
      'name=Ada',
    ])) as { messages: unknown[] };
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
  }, 120_000);
});
