import type { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { Tool } from '../../src/tool/tool.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, toolNames } from './gateway-test-helpers.js';

/*
 * Who you are decides what you see: one visibility function behind tools/list, tools/call,
 * tool_index, call_tool, resources, prompts and the status page. Alice (groups: ops) and Bob
 * (groups: dev) sign in at a real OpenID provider; the `opsbox` server and the `deploy` tool
 * are for ops only, and ops members are the owner (they see `ownerOnly` tools).
 */

const native = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description: `The ${name} tool`,
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ content: [{ type: 'text', text: `${name} ran` }] }),
  ...extra,
});

let oidc: OidcFixture;
let gateway: Gateway;
let provider: McpToolHub;
let url: string;
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

beforeAll(async () => {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const audience = `http://127.0.0.1:${port}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: [audience],
    users: { alice: { groups: ['ops'] }, bob: { groups: ['dev'] } },
    clients: { 'app-a': 'app-a-secret-0123456789', 'app-b': 'app-b-secret-0123456789' },
  });
  const registry = new ToolRegistry();
  registry.register(native('hello'));
  registry.register(native('deploy'));
  registry.register(native('admin_panel', { ownerOnly: true }));
  const config = {
    servers: { echo: stdioFixture('echo'), opsbox: stdioFixture('echo') },
    gateway: {
      auth: {
        type: 'oauth' as const,
        issuer: oidc.issuer,
        audience,
        owner: { claims: { groups: 'ops' } },
      },
      access: [
        { servers: ['opsbox'], who: { claims: { groups: 'ops' } } },
        { tools: ['deploy'], who: { claims: { groups: 'ops' } } },
      ],
      profiles: { router: { mode: 'router' as const } },
    },
  };
  provider = await loadMcpServers(config, registry, { ...gatewayServerRequests(), connectTimeoutMs: 50_000 });
  gateway = createGateway({ registry, provider, config });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port }));
  tokens.alice = await oidc.userToken('alice', 'app-a', audience);
  tokens.bob = await oidc.userToken('bob', 'app-b', audience);
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await provider?.close();
  await oidc?.close();
});

const as = (user: 'alice' | 'bob', era: 'modern' | 'legacy', path = '') =>
  connectClient(`${url}${path}`, era, { headers: { authorization: `Bearer ${tokens[user]}` } });

/** The text of a tool result, or the message of the error it threw. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    const result = (await run()) as { content?: { type: string; text?: string }[]; isError?: boolean };
    return `${result.isError ? 'error: ' : ''}${(result.content ?? []).map((block) => block.text ?? '').join('')}`;
  } catch (error) {
    return `thrown: ${(error as Error).message}`;
  }
}

describe.each(eras)('what each user sees ($label)', ({ era }) => {
  it('lists to each user only the tools their claims admit', async () => {
    const alice = await as('alice', era);
    const bob = await as('bob', era);
    try {
      const aliceTools = await toolNames(alice);
      const bobTools = await toolNames(bob);
      expect(aliceTools).toEqual(
        expect.arrayContaining(['hello', 'deploy', 'admin_panel', 'echo__echo', 'opsbox__echo']),
      );
      expect(bobTools).toEqual(expect.arrayContaining(['hello', 'echo__echo']));
      for (const hidden of ['deploy', 'admin_panel', 'opsbox__echo'])
        expect([hidden, bobTools.includes(hidden)]).toEqual([hidden, false]);
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });

  it('refuses a hidden tool called by name exactly as a tool that does not exist', async () => {
    const bob = await as('bob', era);
    const alice = await as('alice', era);
    try {
      expect(await outcome(() => alice.callTool({ name: 'deploy', arguments: {} }))).toBe('deploy ran');
      const hidden = await outcome(() => bob.callTool({ name: 'deploy', arguments: {} }));
      const missing = await outcome(() => bob.callTool({ name: 'deplox', arguments: {} }));
      expect(hidden).toContain('Unknown tool');
      expect(hidden.replace('deploy', 'X')).toBe(missing.replace('deplox', 'X'));
      expect(await outcome(() => bob.callTool({ name: 'opsbox__echo', arguments: { text: 'x' } }))).toContain(
        'Unknown tool',
      );
      expect(await outcome(() => bob.callTool({ name: 'admin_panel', arguments: {} }))).toContain(
        'Unknown tool',
      );
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });

  it('shows each user only the resources and prompts of the servers they may see', async () => {
    const alice = await as('alice', era);
    const bob = await as('bob', era);
    try {
      const servers = async (client: Client) => {
        const resources = (await client.listResources()).resources.map((resource) => resource.uri);
        const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
        return { resources, prompts };
      };
      const seen = { alice: await servers(alice), bob: await servers(bob) };
      expect(seen.alice.resources.some((uri) => uri.includes('opsbox'))).toBe(true);
      expect(seen.alice.prompts).toContain('opsbox__greet');
      expect(seen.bob.resources.some((uri) => uri.includes('opsbox'))).toBe(false);
      expect(seen.bob.resources.some((uri) => uri.includes('echo'))).toBe(true);
      expect(seen.bob.prompts).not.toContain('opsbox__greet');
      const opsUri = seen.alice.resources.find((uri) => uri.includes('opsbox'))!;
      expect(await outcome(() => bob.readResource({ uri: opsUri }))).toMatch(/thrown: .*not found/i);
      expect(
        await outcome(() => bob.getPrompt({ name: 'opsbox__greet', arguments: { name: 'x' } })),
      ).toContain('Unknown prompt');
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });

  it('hides from tool_index and call_tool what it hides from tools/list (router mode)', async () => {
    const alice = await as('alice', era, '/router');
    const bob = await as('bob', era, '/router');
    try {
      const search = async (client: Client, query: string) =>
        outcome(() => client.callTool({ name: 'tool_index', arguments: { search: query } }));
      expect(await search(alice, 'deploy')).toContain('"deploy"');
      expect(await search(bob, 'deploy')).not.toContain('"deploy"');
      expect(await search(bob, 'echo')).not.toContain('opsbox');
      const listing = await outcome(() => bob.callTool({ name: 'tool_index', arguments: {} }));
      expect(listing).not.toMatch(/"deploy"|admin_panel|opsbox/);
      const call = (client: Client, name: string) =>
        outcome(() => client.callTool({ name: 'call_tool', arguments: { name, arguments: {} } }));
      expect(await call(alice, 'deploy')).toBe('deploy ran');
      const hidden = await call(bob, 'deploy');
      expect(hidden).toContain('TOOL_NOT_FOUND');
      expect(hidden).not.toMatch(/did you mean.*deploy/);
      expect(await call(bob, 'admin_panel')).toContain('TOOL_NOT_FOUND');
      expect(await call(bob, 'opsbox__echo')).toContain('TOOL_NOT_FOUND');
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });

  it("gives a script's tools and describe_tools only the caller's view, whoever ran a script before (router mode)", async () => {
    const alice = await as('alice', era, '/router');
    const bob = await as('bob', era, '/router');
    try {
      const script = (client: Client) =>
        outcome(() =>
          client.callTool({
            name: 'run_script',
            arguments: {
              script: `let deploy; try { deploy = await tools["deploy"]() } catch (e) { deploy = e.message } return [Object.keys(tools).sort().join(","), typeof tools.opsbox, deploy];`,
            },
          }),
        );
      // Alice first, Bob next, then both at once: no script inherits another caller's tools.
      const first = JSON.parse(await script(alice)) as string[];
      expect(first[0]).toMatch(/(^|,)deploy(,|$)/);
      expect(first[0]).toContain('admin_panel');
      expect(first.slice(1)).toEqual(['object', 'deploy ran']);
      const [second, third] = (await Promise.all([script(bob), script(alice)])).map(
        (text) => JSON.parse(text) as string[],
      ) as [string[], string[]];
      expect(second[0]).not.toMatch(/(^|,)deploy(,|$)|admin_panel|opsbox/);
      expect(second[0]).toContain('echo__echo');
      expect(second[1]).toBe('undefined');
      expect(second[2]).toContain('not a function');
      expect(third).toEqual(first);
      const describe = (client: Client) =>
        outcome(() => client.callTool({ name: 'describe_tools', arguments: { names: ['deploy', 'hello'] } }));
      expect(await describe(alice)).toContain('"deploy"(args');
      const described = await describe(bob);
      expect(described).toContain('"hello"(args');
      expect(described).not.toContain('"deploy"(args');
      expect(described).toContain('// unknown tools: deploy');
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });
});

describe('the status page', () => {
  it('names to each user only the servers they may see', async () => {
    const health = async (user: 'alice' | 'bob') =>
      JSON.stringify(
        await (
          await fetch(new URL('/healthz', url), { headers: { authorization: `Bearer ${tokens[user]}` } })
        ).json(),
      );
    expect(await health('alice')).toContain('opsbox');
    expect(await health('bob')).not.toContain('opsbox');
    const page = await (
      await fetch(new URL('/', url), { headers: { authorization: `Bearer ${tokens.bob}` } })
    ).text();
    expect(page).toContain('echo');
    expect(page).not.toContain('opsbox');
  });
});

describe('a 2025 session opened with a high-scope token', () => {
  // One principal, two static tokens: `purge` needs the `tools:admin` scope, which only one has.
  const HIGH = 'high-scope-token-0123456789abcdef';
  const LOW = 'low-scope-token-0123456789abcdefgh';
  let own: { gateway: Gateway; provider: McpToolHub; url: string } | undefined;

  beforeAll(async () => {
    const registry = new ToolRegistry();
    registry.register(native('purge'));
    registry.register(native('hello'));
    const config = {
      servers: {},
      gateway: {
        tokens: {
          high: { token: HIGH, principal: 'carol', scopes: ['tools:admin'] },
          low: { token: LOW, principal: 'carol' },
        },
        access: [{ tools: ['purge'], who: { scopes: ['tools:admin'] } }],
      },
    };
    const hub = await loadMcpServers(config, registry, gatewayServerRequests());
    const served = createGateway({ registry, provider: hub, config });
    const listening = await served.listen({ host: '127.0.0.1', port: 0 });
    own = { gateway: served, provider: hub, url: listening.url };
  }, 60_000);

  afterAll(async () => {
    await own?.gateway.close();
    await own?.provider.close();
  });

  it('refuses a scope-gated tool to a request made with a low-scope token', async () => {
    // The client's headers are read at every request: the token changes after initialize.
    const headers = { authorization: `Bearer ${HIGH}` };
    const client = await connectClient(own!.url, 'legacy', { headers });
    try {
      // The control: the high-scope token sees and calls it.
      expect(await toolNames(client)).toContain('purge');
      const ran = await client.callTool({ name: 'purge', arguments: {} });
      expect(ran.content).toEqual([{ type: 'text', text: 'purge ran' }]);
      headers.authorization = `Bearer ${LOW}`;
      const names = await toolNames(client);
      expect(names).toContain('hello');
      expect(names).not.toContain('purge');
      await expect(client.callTool({ name: 'purge', arguments: {} })).rejects.toThrow(/Unknown tool: purge/);
      // …and the session still serves what the low-scope token may call.
      expect((await client.callTool({ name: 'hello', arguments: {} })).content).toEqual([
        { type: 'text', text: 'hello ran' },
      ]);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('over HTTP+SSE (/sse) too: each POSTed message is served with the token it came with', async () => {
    const headers = { authorization: `Bearer ${HIGH}` };
    const client = new V1Client({ name: 'sse-scopes', version: '1.0.0' });
    // The transport reads this object at every POST: the token changes after the stream opened.
    await client.connect(new SSEClientTransport(new URL('/sse', own!.url), { requestInit: { headers } }));
    try {
      // The control: the token that opened the stream sees and calls it.
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('purge');
      expect((await client.callTool({ name: 'purge', arguments: {} })).content).toEqual([
        { type: 'text', text: 'purge ran' },
      ]);
      headers.authorization = `Bearer ${LOW}`;
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('hello');
      expect(names).not.toContain('purge');
      await expect(client.callTool({ name: 'purge', arguments: {} })).rejects.toThrow(/Unknown tool: purge/);
      expect((await client.callTool({ name: 'hello', arguments: {} })).content).toEqual([
        { type: 'text', text: 'hello ran' },
      ]);
    } finally {
      await client.close();
    }
  }, 30_000);
});
