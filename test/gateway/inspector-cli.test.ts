import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin as bin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { type RunningGateway, startGateway } from './gateway-test-helpers.js';
import { inspect } from './inspector-cli-process.js';

/*
 * A third-party client (the MCP Inspector's CLI, built on SDK v1: a 2025-era client) against
 * the gateway, over HTTP (a library gateway) and over stdio (the built `mcptools serve --stdio`).
 */
let running: RunningGateway;
let dir: string;
let config: string;

beforeAll(async () => {
  running = await startGateway({ servers: { echo: stdioFixture('echo') } });
  dir = mkdtempSync(join(tmpdir(), 'mcptools-inspector-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(config, JSON.stringify({ servers: { echo: fixtureCommand('echo') } }));
});

afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

const targets = [
  { label: 'HTTP', target: () => [running.url, '--transport', 'http'] },
  {
    label: 'stdio (mcptools serve --stdio)',
    target: () => [process.execPath, bin, 'serve', '--stdio', '--config', config],
  },
];

// Each step starts the inspector (and, over stdio, the gateway and its upstream): give it time on a busy machine.
describe.each(targets)('the MCP Inspector CLI over $label', { timeout: 180_000 }, ({ target }) => {
  it('lists and calls tools', async () => {
    const listed = (await inspect(target(), ['--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('echo__echo');
    const called = (await inspect(target(), [
      '--method',
      'tools/call',
      '--tool-name',
      'echo__echo',
      '--tool-arg',
      'text=inspected',
    ])) as { content: { text: string }[] };
    expect(called.content[0]?.text).toBe('inspected');
  });

  it('reads a resource and gets a prompt', async () => {
    const read = (await inspect(target(), [
      '--method',
      'resources/read',
      '--uri',
      // The only server that offers it: read by the URI the server gave.
      'echo://static/hello',
    ])) as {
      contents: { text: string }[];
    };
    expect(read.contents[0]?.text).toBe('hello');
    const prompt = (await inspect(target(), [
      '--method',
      'prompts/get',
      '--prompt-name',
      'echo__greet',
      '--prompt-args',
      'name=Ada',
    ])) as { messages: unknown[] };
    expect(JSON.stringify(prompt.messages)).toContain('Hello, Ada!');
  });

  it("shows an upstream's error once, with its code (an SDK v1 client prefixes it itself)", async () => {
    const failed = await inspect(target(), ['--method', 'prompts/get', '--prompt-name', 'echo__greet']).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/MCP error -32602: /);
    expect(failed).not.toMatch(/MCP error -32602: MCP error|-32603/);
  });
});
