import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { cliBin } from '../cli/cli-process.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { waitUntil } from '../helpers/wait-until.js';
import { eventually, isAlive, stdioFixture } from '../mcp/hub-test-helpers.js';
import { everythingServer } from '../router/router-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

const SHARED = 'file:///same';

/** server-everything beside two fixtures that both serve `file:///same`. */
const config: McpToolsConfig = {
  servers: {
    everything: everythingServer(),
    one: stdioFixture('resources', ['--name', 'one', '--shared', SHARED]),
    two: stdioFixture('resources', ['--name', 'two', '--shared', SHARED]),
  },
  gateway: { profiles: { routed: { mode: 'router' } } },
};

/** The fields of a router tool's JSON result these tests read. */
type RouterJson = { resources?: { server: string; uri: string }[]; server?: string };

type Block = { type: string; uri?: string; text?: string; resource?: { uri: string; text?: string } };

/** What a rejected request threw: its JSON-RPC code and message. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await request;
  } catch (error) {
    expect(ProtocolError.isInstance(error)).toBe(true);
    return { code: (error as ProtocolError).code, message: (error as Error).message };
  }
  throw new Error('the request did not fail');
}

/** Checks, through `client`, everything a gateway client must be able to do with the URIs it is handed. */
function resourceUriBehaviour(client: () => Client) {
  it("reads back a tool's resource_link and embedded resource under the URIs the server gave", async () => {
    const links = await client().callTool({
      name: 'everything__get-resource-links',
      arguments: { count: 2 },
    });
    const linked = (links.content as Block[]).filter((block) => block.type === 'resource_link');
    expect(linked.map((block) => block.uri)).toEqual([
      'demo://resource/dynamic/blob/1',
      'demo://resource/dynamic/text/2',
    ]);
    for (const link of linked) {
      const read = await client().readResource({ uri: link.uri! });
      expect(read.contents[0]?.uri).toBe(link.uri);
    }
    const reference = await client().callTool({
      name: 'everything__get-resource-reference',
      arguments: { resourceType: 'Text', resourceId: 3 },
    });
    const embedded = (reference.content as Block[]).find((block) => block.type === 'resource')?.resource;
    expect(embedded?.uri).toBe('demo://resource/dynamic/text/3');
    const read = await client().readResource({ uri: embedded!.uri });
    // The text names the second it was made: the same resource, read again.
    const again = (read.contents[0] as { text: string }).text;
    expect(again.replace(/created at .*/, '')).toBe(embedded!.text!.replace(/created at .*/, ''));
    expect(again).toMatch(/^Resource 3: /);
  });

  it('lists a shared URI once per server in qualified form, and reads each', async () => {
    const { resources } = await client().listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris.filter((uri) => uri.endsWith(SHARED)).sort()).toEqual([
      `mcptools://one/${SHARED}`,
      `mcptools://two/${SHARED}`,
    ]);
    // Everything the two fixtures both serve is qualified; server-everything's URIs are its own.
    expect(uris).toContain('mcptools://one/res://big/text');
    expect(uris).not.toContain('res://big/text');
    expect(uris.some((uri) => uri.startsWith('demo://resource/static/document/'))).toBe(true);
    const one = await client().readResource({ uri: `mcptools://one/${SHARED}` });
    const two = await client().readResource({ uri: `mcptools://two/${SHARED}` });
    expect((one.contents[0] as { text: string }).text).toBe('served by one');
    expect((two.contents[0] as { text: string }).text).toBe('served by two');
    expect(one.contents[0]?.uri).toBe(`mcptools://one/${SHARED}`);
  });

  it('answers the bare shared URI with an error naming both servers and their qualified URIs', async () => {
    const { code, message } = await failure(client().readResource({ uri: SHARED }));
    expect(code).toBe(-32602);
    expect(message).toContain(`"one" (mcptools://one/${SHARED})`);
    expect(message).toContain(`"two" (mcptools://two/${SHARED})`);
  });

  it("carries the qualified form of a shared URI in those servers' tool results", async () => {
    const result = await client().callTool({ name: 'two__link-shared', arguments: {} });
    const blocks = result.content as Block[];
    expect(blocks.map((block) => block.uri ?? block.resource?.uri)).toEqual([
      `mcptools://two/${SHARED}`,
      `mcptools://two/${SHARED}`,
    ]);
    const read = await client().readResource({ uri: blocks[0]!.uri! });
    expect((read.contents[0] as { text: string }).text).toBe('served by two');
  });
}

describe('resource URIs through the gateway over HTTP', () => {
  let running: RunningGateway;

  beforeAll(async () => {
    running = await startGateway(config);
  });

  afterAll(async () => {
    await running?.close();
  });

  describe.each(eras)('a $label', ({ era }) => {
    let client: Client;

    beforeAll(async () => {
      client = await connectClient(running.url, era);
    });

    afterAll(async () => {
      await client?.close();
    });

    resourceUriBehaviour(() => client);

    it('lists templates under their own URIs, shared ones qualified, and routes completions by them', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      const templates = resourceTemplates.map((template) => template.uriTemplate);
      expect(templates).toContain('demo://resource/dynamic/text/{resourceId}');
      expect(templates.filter((template) => template.endsWith('res://template/{name}')).sort()).toEqual([
        'mcptools://one/res://template/{name}',
        'mcptools://two/res://template/{name}',
      ]);
      const read = await client.readResource({ uri: 'mcptools://one/res://template/x' });
      expect((read.contents[0] as { text: string }).text).toBe('template x');
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        argument: { name: 'resourceId', value: '7' },
      });
      expect(completion.completion.values).toEqual(['7']);
    });

    it("passes an upstream's error through once: its code and its message, unprefixed", async () => {
      const prompt = await failure(client.getPrompt({ name: 'everything__args-prompt', arguments: {} }));
      expect(prompt.code).toBe(-32602);
      expect(prompt.message).not.toMatch(/MCP error/);
      expect(prompt.message).toMatch(/city/i);
      const read = await failure(client.readResource({ uri: 'mcptools://everything/demo://no/such' }));
      expect(read.code).toBe(-32602);
      expect(read.message).not.toMatch(/MCP error/);
      expect(read.message).toContain('demo://no/such');
    });
  });
});

describe('a URI a server hands out that another server offers', () => {
  let running: RunningGateway;
  let client: Client;
  const TEXT = 'demo://resource/dynamic/text/2';

  beforeAll(async () => {
    running = await startGateway({
      servers: {
        everything: everythingServer(),
        taker: stdioFixture('resources', ['--name', 'taker', '--link', TEXT]),
      },
    });
    client = await connectClient(running.url, 'legacy');
  });

  afterAll(async () => {
    await client?.close();
    await running?.close();
  });

  it('is never taken over: it becomes shared, and each copy reads by its qualified form', async () => {
    const before = await client.readResource({ uri: TEXT });
    expect(before.contents[0]?.uri).toBe(TEXT);
    const handed = await client.callTool({ name: 'taker__link-shared', arguments: {} });
    expect((handed.content as Block[])[0]?.uri).toBe(`mcptools://taker/${TEXT}`);
    const { message } = await failure(client.readResource({ uri: TEXT }));
    expect(message).toContain(`"everything" (mcptools://everything/${TEXT})`);
    const original = await client.readResource({ uri: `mcptools://everything/${TEXT}` });
    expect((original.contents[0] as { text: string }).text).toMatch(/^Resource 2: /);
  });
});

describe('the router tools of a gateway profile', () => {
  let running: RunningGateway;
  let client: Client;

  beforeAll(async () => {
    running = await startGateway(config);
    client = await connectClient(`${running.url}/routed`, 'legacy');
  });

  afterAll(async () => {
    await client?.close();
    await running?.close();
  });

  const call = async (
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; json: RouterJson }> => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Block[])[0]?.text ?? '';
    return { isError: result.isError === true, json: JSON.parse(text) as RouterJson };
  };

  it('follow the same rule: shared URIs listed qualified, read by either form, the bare one refused', async () => {
    const listed = await call('list_mcp_resources', { max: 500 });
    const same = (listed.json.resources ?? []).filter((entry) => entry.uri.endsWith(SHARED));
    expect(same.map((entry) => `${entry.server} ${entry.uri}`).sort()).toEqual([
      `one mcptools://one/${SHARED}`,
      `two mcptools://two/${SHARED}`,
    ]);
    const qualified = await call('read_mcp_resource', { uri: `mcptools://two/${SHARED}` });
    expect(qualified.isError).toBe(false);
    expect(JSON.stringify(qualified.json)).toContain('served by two');
    const named = await call('read_mcp_resource', { server: 'one', uri: SHARED });
    expect(JSON.stringify(named.json)).toContain('served by one');
    const bare = await call('read_mcp_resource', { uri: SHARED });
    expect(bare.isError).toBe(true);
    expect(JSON.stringify(bare.json)).toContain(`mcptools://one/${SHARED}`);
    expect(JSON.stringify(bare.json)).toContain(`mcptools://two/${SHARED}`);
    // A URI only one server offers needs no server.
    const linked = await call('read_mcp_resource', { uri: 'demo://resource/dynamic/text/2' });
    expect(linked.isError).toBe(false);
    expect(linked.json.server).toBe('everything');
  });
});

describe('resource URIs through the gateway over stdio (built binary)', () => {
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-uris-'));
    file = join(dir, 'mcptools.json');
    writeFileSync(file, JSON.stringify(config));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each(eras)('a $label', ({ era }) => {
    let client: Client;
    let pid: number;

    beforeAll(async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cliBin, 'serve', '--stdio', '--config', file],
        env: SERVE_BOX_OFF,
        stderr: 'ignore',
      });
      client = new Client(
        { name: 'uris-stdio-test', version: '1.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } } : {},
      );
      await client.connect(transport);
      pid = transport.pid!;
      // The servers connect in the background: wait for all three servers' tools.
      const listed = await eventually(async () => {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        return ['everything__echo', 'one__link-shared', 'two__link-shared'].every((name) =>
          names.includes(name),
        );
      }, 60_000);
      expect(listed).toBe(true);
    }, 90_000);

    afterAll(async () => {
      await client?.close();
      await waitUntil(() => !isAlive(pid), 'until !isAlive(pid)', 10_000);
    });

    it('negotiates the era it asked for', () => {
      expect(client.getProtocolEra()).toBe(era);
    });

    resourceUriBehaviour(() => client);
  });
});
