import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { policyWarnings } from '../../src/policies/policy-warnings.js';
import {
  connectClient,
  eras,
  type RunningGateway,
  startGateway,
  toolNames,
} from '../gateway/gateway-test-helpers.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

/*
 * Tool overrides per gateway profile: declared under a profile, they change what
 * that profile's clients see and call — tools/list, tool_index, call names, fixed arguments —
 * and nothing that clients of another profile see.
 */

const config: McpToolsConfig = {
  servers: { echo: stdioFixture('echo') },
  gateway: {
    profiles: {
      docs: {
        overrides: {
          echo: {
            echo: { name: 'say', title: 'Say', description: 'Say the text back (docs profile)' },
            add: { arguments: { b: 40 } },
            // Collides with the rename above: not served on this profile, with a warning.
            fail: { name: 'say' },
          },
        },
      },
      lookup: {
        mode: 'router',
        overrides: { echo: { echo: { name: 'shout', description: 'Shout the text back' } } },
      },
    },
  },
};

let running: RunningGateway;
const logged: string[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  running = await startGateway(config, { log: (line: string) => logged.push(line) });
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await running?.close();
});

async function client(path: string, era: 'modern' | 'legacy'): Promise<Client> {
  const connected = await connectClient(`${running.url.replace(/\/mcp$/, '')}${path}`, era);
  clients.push(connected);
  return connected;
}

describe.each(eras)('tool overrides per gateway profile ($label)', ({ era }) => {
  it('renames, re-describes and fixes arguments for the profile that declares them only', async () => {
    const docs = await client('/mcp/docs', era);
    const plain = await client('/mcp', era);
    const docsTools = (await docs.listTools()).tools;
    const say = docsTools.find((tool) => tool.name === 'say');
    expect(say?.description).toBe('Say the text back (docs profile)');
    expect(say?.annotations?.title).toBe('Say');
    expect(docsTools.map((tool) => tool.name)).not.toContain('echo__echo');
    const add = docsTools.find((tool) => tool.name === 'echo__add');
    expect(Object.keys(add?.inputSchema.properties ?? {})).toEqual(['a']);
    expect(add?.inputSchema.required ?? []).not.toContain('b');

    // The other profile sees the registry's tools as they are.
    const plainTools = (await plain.listTools()).tools;
    expect(plainTools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo__echo', 'echo__fail']));
    expect(plainTools.map((tool) => tool.name)).not.toContain('say');
    expect(
      Object.keys(plainTools.find((tool) => tool.name === 'echo__add')?.inputSchema.properties ?? {}),
    ).toEqual(['a', 'b']);

    // Calls: the new name runs the tool; the fixed argument is filled in (and replaces one sent anyway).
    expect(textOf((await docs.callTool({ name: 'say', arguments: { text: 'hi' } })) as never)).toBe('hi');
    expect(textOf((await docs.callTool({ name: 'echo__add', arguments: { a: 2 } })) as never)).toBe('42');
    expect(textOf((await docs.callTool({ name: 'echo__add', arguments: { a: 2, b: 1 } })) as never)).toBe(
      '42',
    );
    expect(textOf((await plain.callTool({ name: 'echo__add', arguments: { a: 2, b: 1 } })) as never)).toBe(
      '3',
    );
    // A name of one profile is not a name of the other.
    const unknown = await plain
      .callTool({ name: 'say', arguments: { text: 'hi' } })
      .catch((error: Error) => error);
    expect(unknown instanceof Error ? unknown.message : textOf(unknown as never)).toMatch(/say/);
    if (!(unknown instanceof Error)) expect(unknown.isError).toBe(true);
  });

  it('leaves out a tool whose override collides with another name, and logs it naming the field', async () => {
    const docs = await client('/mcp/docs', era);
    expect(await toolNames(docs)).not.toContain('echo__fail');
    expect(logged.join('\n')).toContain(
      'gateway.profiles.docs.overrides.echo.fail.name: "say" is already the name of another tool; echo/fail is not served on this profile',
    );
    // Once per problem, however often the profile lists its tools.
    await toolNames(docs);
    expect(logged.filter((line) => line.includes('overrides.echo.fail')).length).toBe(1);
  });

  it('shows the override in a router profile: tool_index and call_tool by the new name', async () => {
    const lookup = await client('/mcp/lookup', era);
    const index = textOf(
      (await lookup.callTool({ name: 'tool_index', arguments: { search: 'shout' } })) as never,
    );
    expect(index).toContain('shout');
    expect(index).toContain('Shout the text back');
    expect(index).not.toContain('echo__echo');
    const called = await lookup.callTool({
      name: 'call_tool',
      arguments: { name: 'shout', arguments: { text: 'loud' } },
    });
    expect(textOf(called as never)).toBe('loud');
  });
});

describe('gateway profile overrides in the configuration', () => {
  it('are read with the shape of policies.overrides, a bad name refused naming the field', () => {
    const read = parseConfig(
      {
        servers: { echo: { command: 'echo-mcp' } },
        gateway: { overrides: { echo: { echo: { name: 'say' } } } },
      },
      { file: '/tmp/mcptools.json' },
    );
    expect(read.gateway?.overrides).toEqual({ echo: { echo: { name: 'say' } } });
    expect(() =>
      parseConfig(
        {
          servers: { echo: { command: 'echo-mcp' } },
          gateway: { profiles: { docs: { overrides: { echo: { echo: { name: 'no spaces' } } } } } },
        },
        { file: '/tmp/mcptools.json' },
      ),
    ).toThrow(/gateway\.profiles\.docs\.overrides\.echo\.echo\.name/);
  });

  it('warn about a server that is not configured and a tool the server does not have', () => {
    const warnings = policyWarnings(
      {
        ...config,
        gateway: {
          profiles: {
            docs: { overrides: { nowhere: { x: { name: 'y' } }, echo: { ghost: { description: 'd' } } } },
          },
        },
      },
      running.registry,
    );
    expect(warnings).toEqual([
      'gateway.profiles.docs.overrides.nowhere: no server "nowhere" is configured',
      'gateway.profiles.docs.overrides.echo.ghost: server "echo" has no tool "ghost"',
    ]);
  });
});
