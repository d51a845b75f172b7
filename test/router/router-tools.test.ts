import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { TOOL_NAME_PATTERN } from '../../src/registry/tool-name.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { RouterToolsOptions } from '../../src/router/router-options.js';
import { planModeFilter } from '../../src/router/tool-policy-filters.js';
import type { Tool, ToolUpdate } from '../../src/tool/tool.js';
import { waitUntil } from '../helpers/wait-until.js';
import { everythingServer, firstText, fixtureServer, jsonOf } from './router-test-helpers.js';

let provider: McpToolHub;
let registry: ToolRegistry;

function routerTools(options: RouterToolsOptions = {}): Record<string, Tool> {
  return Object.fromEntries(createRouterTools(provider, registry, options).map((tool) => [tool.name, tool]));
}

beforeAll(async () => {
  registry = new ToolRegistry();
  provider = await loadMcpServers(
    {
      servers: {
        everything: everythingServer(),
        echo: fixtureServer('echo'),
        dying: fixtureServer('resources', ['--name', 'dying']),
      },
    },
    registry,
    { reconnect: { enabled: false } },
  );
});

afterAll(async () => {
  await provider?.close();
});

describe('createRouterTools', () => {
  it('returns the eight router tools, all source router, read-only except call_tool and run_script', () => {
    const tools = createRouterTools(provider, registry);
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_mcp_resources',
      'read_mcp_resource',
      'list_mcp_prompts',
      'get_mcp_prompt',
      'tool_index',
      'call_tool',
      'run_script',
      'describe_tools',
    ]);
    for (const tool of tools) {
      expect(tool.source).toBe('router');
      expect(tool.readOnly).toBe(tool.name !== 'call_tool' && tool.name !== 'run_script');
      expect(tool.parameters.type).toBe('object');
    }
    // Code mode is configurable: off, the six others stay.
    expect(createRouterTools(provider, registry, { codeMode: false }).map((tool) => tool.name)).not.toContain(
      'run_script',
    );
  });

  it('keeps all router tool definitions within 1,000 o200k tokens', () => {
    const definitions = createRouterTools(provider, registry).map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }));
    const tokens = countTokens(JSON.stringify(definitions));
    console.log(`router tool definitions: ${tokens} o200k tokens`);
    expect(tokens).toBeLessThanOrEqual(1000);
  });

  it('renames tools on request and call_tool follows the rename of tool_index in its description', () => {
    const tools = createRouterTools(provider, registry, {
      names: { toolIndex: 'find_tools', callTool: 'run_tool' },
    });
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('find_tools');
    expect(tools.find((tool) => tool.name === 'run_tool')?.description).toContain('find_tools');
  });

  it('adds per-server resource tools beside the router pair when asked, with legal names', async () => {
    const tools = routerTools({ config: { router: { perServerResourceTools: true } } });
    for (const name of [
      'mcp__echo__list_resources',
      'mcp__echo__read_resource',
      'mcp__everything__list_resources',
    ]) {
      expect(tools[name]).toBeDefined();
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(tools[name]!.readOnly).toBe(true);
    }
    expect(tools.list_mcp_resources).toBeDefined();
    expect('server' in (tools.mcp__echo__read_resource!.parameters.properties ?? {})).toBe(false);
    const read = jsonOf(
      await tools.mcp__echo__read_resource!.execute('p1', { uri: 'echo://static/unicode' }),
    );
    expect(read).toMatchObject({ server: 'echo', uri: 'echo://static/unicode' });
    expect(read.contents[0].text).toBe('Grüße € 日本語 🎉');
    const listed = jsonOf(await tools.mcp__echo__list_resources!.execute('p2', {}));
    expect(new Set(listed.resources.map((entry: { server: string }) => entry.server))).toEqual(
      new Set(['echo']),
    );
    const refused = await tools.call_tool!.execute('p3', {
      name: 'mcp__echo__list_resources',
      arguments: {},
    });
    expect(refused.isError).toBe(true);
  });
});

describe('prompt tools against server-everything', () => {
  it('lists prompts with their arguments', async () => {
    const { list_mcp_prompts: list } = routerTools();
    const payload = jsonOf(await list!.execute('q1', { server: 'everything' }));
    const args = payload.prompts.find((prompt: { name: string }) => prompt.name === 'args-prompt');
    expect(args).toMatchObject({
      server: 'everything',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    });
    expect(payload.errors).toEqual([]);
    expect(payload.count).toBe(payload.prompts.length);
  });

  it('expands a prompt with arguments', async () => {
    const { get_mcp_prompt: get } = routerTools();
    const payload = jsonOf(
      await get!.execute('q2', { server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } }),
    );
    expect(JSON.stringify(payload.messages)).toContain('Paris');
  });

  it('answers an unknown prompt with ResourceNotFound listing the prompts', async () => {
    const { get_mcp_prompt: get } = routerTools();
    const result = await get!.execute('q3', { server: 'everything', name: 'no-such-prompt' });
    expect(result.isError).toBe(true);
    const { error } = jsonOf(result);
    expect(error.type).toBe('ResourceNotFound');
    expect(error.available).toContain('simple-prompt');
  });
});

describe('call_tool against real MCP servers', () => {
  it('calls an MCP tool and returns its lossless result unchanged', async () => {
    const { call_tool: call } = routerTools();
    const echo = await call!.execute('t1', { name: 'everything__echo', arguments: { message: 'hi there' } });
    expect(echo.isError).toBeFalsy();
    expect(firstText(echo)).toContain('hi there');
    const image = await call!.execute('t2', { name: 'everything__get-tiny-image', arguments: {} });
    expect(image.content.some((block) => block.type === 'image')).toBe(true);
  });

  it('forwards onUpdate so progress reaches the caller', async () => {
    const { call_tool: call } = routerTools();
    const updates: ToolUpdate[] = [];
    const result = await call!.execute(
      't3',
      { name: 'echo__slow', arguments: { ms: 40, steps: 2 } },
      undefined,
      (update) => updates.push(update),
    );
    expect(firstText(result)).toBe('slept 40ms in 2 steps');
    expect(updates.length).toBeGreaterThanOrEqual(1);
  });

  it('rejects invalid arguments before the server sees the call', async () => {
    const { call_tool: call } = routerTools();
    const completed = async () => {
      const counts = await call!.execute('t4', { name: 'echo__cancelled_count', arguments: {} });
      return (counts.structuredContent as { completed: number }).completed;
    };
    const before = await completed();
    const result = await call!.execute('t5', { name: 'echo__slow', arguments: { ms: 'soon' } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('ms');
    expect(await completed()).toBe(before);
  });

  it('suggests the namespaced tool for a bare name', async () => {
    const { call_tool: call } = routerTools();
    const result = await call!.execute('t6', { name: 'get-sum', arguments: {} });
    expect(result.isError).toBe(true);
    expect(jsonOf(result).error.suggestions[0]).toBe('everything__get-sum');
  });

  it('in plan mode refuses an MCP tool without readOnlyHint and allows a read-only one', async () => {
    const tools = routerTools({ planMode: true });
    const refused = await tools.call_tool!.execute('t7', {
      name: 'everything__toggle-simulated-logging',
      arguments: {},
    });
    expect(refused.isError).toBe(true);
    expect(jsonOf(refused).error).toMatchObject({
      type: 'PermissionDenied',
      msg: 'plan mode: everything__toggle-simulated-logging is not read-only',
    });
    const allowed = await tools.call_tool!.execute('t8', {
      name: 'everything__echo',
      arguments: { message: 'ok' },
    });
    expect(allowed.isError).toBeFalsy();
    const exposed = planModeFilter([...(await registry.resolveAll()), ...Object.values(tools)]).map(
      (tool) => tool.name,
    );
    expect(exposed).toContain('everything__echo');
    expect(exposed).toContain('read_mcp_resource');
    expect(exposed).not.toContain('call_tool');
    expect(exposed).not.toContain('everything__toggle-simulated-logging');
  });
});

describe('tool_index through createRouterTools', () => {
  it('cuts a catalog larger than the response budget at whole entries and pages to the end', async () => {
    const { tool_index: index } = routerTools({ maxResponseBytes: 1500 });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let total = 0;
    do {
      const result = await index!.execute('i1', { include_schemas: true, ...(cursor ? { cursor } : {}) });
      const payload = jsonOf(result);
      total = payload.total;
      names.push(...payload.tools.map((tool: { name: string }) => tool.name));
      cursor = payload.next_cursor;
      pages++;
      if (cursor) expect(payload.truncated).toBe(true);
    } while (cursor && pages < 50);
    expect(pages).toBeGreaterThan(1);
    expect(names).toHaveLength(total);
    expect(new Set(names).size).toBe(total);
    expect(names).toContain('everything__echo');
  });
});

describe('a server that dies between list and read', () => {
  it('reads fail with ConnectionFailed and listings report it in errors while others still answer', async () => {
    const tools = routerTools();
    const listed = jsonOf(await tools.list_mcp_resources!.execute('d1', { server: 'dying' }));
    expect(listed.resources.length).toBe(35);
    const died = await tools.call_tool!.execute('d2', { name: 'dying__die', arguments: {} });
    expect(died.isError).toBe(true);
    await waitUntil(
      () => provider.status('dying')?.state !== 'connected',
      "until provider.status('dying')?.state !== 'connected'",
    );
    const read = await tools.read_mcp_resource!.execute('d3', {
      server: 'dying',
      uri: listed.resources[0].uri,
    });
    expect(read.isError).toBe(true);
    expect(jsonOf(read).error).toMatchObject({ type: 'ConnectionFailed', recoverable: true });
    const all = jsonOf(await tools.list_mcp_resources!.execute('d4', {}));
    expect(all.errors).toEqual([expect.objectContaining({ server: 'dying', type: 'ConnectionFailed' })]);
    expect(all.resources.some((entry: { server: string }) => entry.server === 'echo')).toBe(true);
    const prompts = jsonOf(await tools.list_mcp_prompts!.execute('d5', {}));
    expect(prompts.errors.map((entry: { server: string }) => entry.server)).toEqual(['dying']);
    // tool_index still lists the dead server's tools, marked, so an agent can pick another.
    const state = provider.status('dying')?.state;
    const dead = jsonOf(await tools.tool_index!.execute('d6', { category: 'dying' }));
    expect(dead.tools.length).toBeGreaterThan(0);
    expect(dead.tools.every((entry: { server_state?: string }) => entry.server_state === state)).toBe(true);
    const alive = jsonOf(await tools.tool_index!.execute('d7', { category: 'echo' }));
    expect(alive.tools.some((entry: { server_state?: string }) => 'server_state' in entry)).toBe(false);
  });
});
