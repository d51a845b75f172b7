import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { cliBin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
// The examples import 'mcptools' (the package's own name, so dist/: `npm test` builds first).
// No API key: each uses its scripted model.
const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' };
const example = (name: string) =>
  run(process.execPath, ['--import', 'tsx', `examples/${name}`], { cwd: root, env, timeout: 60_000 });
const temp = mkdtempSync(join(tmpdir(), 'mcptools-examples-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('examples/', () => {
  it('agent-loop.ts: MCP echo and the plugin dice tool answer the AI SDK scripted model', async () => {
    const { stdout } = await example('agent-loop.ts');
    expect(stdout).toMatch(/OpenAI: \d+ tools, non-strict fallbacks: none/);
    expect(stdout).toContain('2 steps');
    expect(stdout).toContain('everything__echo → Echo: hello');
    expect(stdout).toMatch(/dice_roll → \{\s+"sides": 20,\s+"roll": \d+/);
  });

  it('openai-agent-loop.ts: the openai SDK sends the tools, the call runs, the result goes back', async () => {
    const { stdout } = await example('openai-agent-loop.ts');
    expect(stdout).toContain(
      'everything__get-sum({"a":2,"b":3}) → [{"type":"text","text":"The sum of 2 and 3 is 5."}]',
    );
    expect(stdout).toContain('answer after 2 steps: The tool says: The sum of 2 and 3 is 5.');
  });

  it('anthropic-agent-loop.ts: the same on the Messages API with @anthropic-ai/sdk', async () => {
    const { stdout } = await example('anthropic-agent-loop.ts');
    expect(stdout).toContain(
      'everything__get-sum({"a":2,"b":3}) → [{"type":"text","text":"The sum of 2 and 3 is 5."}]',
    );
    expect(stdout).toMatch(/answer after 2 steps: The tool says: .*The sum of 2 and 3 is 5\./);
  });

  it('gateway-in-hono.ts: the gateway serves the MCP client inside a Hono app, beside its own route', async () => {
    const { stdout } = await example('gateway-in-hono.ts');
    expect(stdout).toMatch(/\d+ tools through Hono; everything__get-sum → .*The sum of 2 and 3 is 5\./);
    expect(stdout).toContain("the app's own route: my app");
  });

  it('claude-desktop-config.json: its one entry starts serve --stdio, which serves the configured servers', async () => {
    const file = join(root, 'examples', 'claude-desktop-config.json');
    const desktop = JSON.parse(readFileSync(file, 'utf8')) as {
      mcpServers: { mcptools: { command: string; args: string[] } };
    };
    // As Claude Desktop reads it, and as mcptools' own reader does.
    expect(parseConfig(desktop, { file }).servers.mcptools).toMatchObject({ type: 'stdio', command: 'npx' });
    const { args } = desktop.mcpServers.mcptools;
    const config = join(temp, 'mcptools.json');
    writeFileSync(config, JSON.stringify({ servers: { echo: fixtureCommand('echo') } }));
    // `npx -y mcptools` is this package's bin: run the built one, with the config path filled in.
    const serveArgs = args
      .slice(args.indexOf('mcptools') + 1)
      .map((arg) => (arg.endsWith('mcptools.json') ? config : arg));
    expect(serveArgs.slice(0, 2)).toEqual(['serve', '--stdio']);
    const client = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliBin, ...serveArgs],
        env: SERVE_BOX_OFF,
        cwd: '/',
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo__echo');
      const echoed = await client.callTool({ name: 'echo__echo', arguments: { text: 'hi' } });
      expect(JSON.stringify(echoed.content)).toContain('hi');
    } finally {
      await client.close();
    }
  });
});
