import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createCallToolTool } from '../../src/router/call-tool-tool.js';
import { type RouterToolsOptions, resolveRouterOptions } from '../../src/router/router-options.js';
import { ownerOnlyFilter, planModeFilter } from '../../src/router/tool-policy-filters.js';
import type { Tool, ToolResult, ToolUpdate } from '../../src/tool/tool.js';

interface Recorder {
  calls: Record<string, unknown>[];
  signals: (AbortSignal | undefined)[];
}

function nativeTools(recorder: Recorder): Tool[] {
  return [
    {
      name: 'add_numbers',
      description: 'Add two numbers',
      readOnly: true,
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      async execute(_id, params, signal, onUpdate) {
        recorder.calls.push(params);
        recorder.signals.push(signal);
        onUpdate?.({ content: [{ type: 'text', text: 'working' }] });
        return { content: [{ type: 'text', text: String(Number(params.a) + Number(params.b)) }] };
      },
    },
    {
      name: 'delete_everything',
      description: 'Deletes things',
      parameters: { type: 'object', properties: {} },
      async execute(_id, params) {
        recorder.calls.push(params);
        return { content: [{ type: 'text', text: 'deleted' }] };
      },
    },
    {
      name: 'rotate_keys',
      description: 'Rotates the API keys',
      ownerOnly: true,
      parameters: { type: 'object', properties: {} },
      async execute(_id, params) {
        recorder.calls.push(params);
        return { content: [{ type: 'text', text: 'rotated' }] };
      },
    },
    {
      name: 'explode',
      description: 'Throws',
      readOnly: true,
      parameters: { type: 'object', properties: {} },
      async execute() {
        throw new Error('kaboom');
      },
    },
  ];
}

function setup(options: RouterToolsOptions = {}, registryOptions = {}) {
  const recorder: Recorder = { calls: [], signals: [] };
  const registry = new ToolRegistry(registryOptions);
  for (const tool of nativeTools(recorder)) registry.register(tool);
  const callTool = createCallToolTool(
    registry,
    resolveRouterOptions(options),
    new Set(['call_tool', 'tool_index']),
  );
  return { recorder, registry, callTool };
}

function payloadOf(result: { content: { type: string }[] }) {
  const block = result.content[0] as { type: 'text'; text: string };
  return JSON.parse(block.text) as {
    error?: { type: string; code: string; msg: string; suggestions?: string[]; field?: string };
  };
}

function expectPermissionDenied(result: ToolResult, msg: string) {
  expect(result.isError).toBe(true);
  expect(payloadOf(result).error).toMatchObject({ type: 'PermissionDenied', code: 'PERMISSION_DENIED', msg });
}

describe('call_tool', () => {
  it('calls a native tool by name and forwards the signal and onUpdate', async () => {
    const { recorder, callTool } = setup();
    const controller = new AbortController();
    const updates: ToolUpdate[] = [];
    const result = await callTool.execute(
      'c1',
      { name: 'add_numbers', arguments: { a: 2, b: 3 } },
      controller.signal,
      (update) => updates.push(update),
    );
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
    expect(recorder.signals[0]).toBe(controller.signal);
    expect(updates).toHaveLength(1);
    expect(callTool.readOnly).toBe(false);
    expect(callTool.source).toBe('router');
  });

  it('rejects invalid arguments naming the field, before the tool runs', async () => {
    const { recorder, callTool } = setup();
    const missing = await callTool.execute('c2', { name: 'add_numbers', arguments: { a: 1 } });
    expect(missing.isError).toBe(true);
    expect(payloadOf(missing).error).toMatchObject({
      type: 'InvalidArguments',
      code: 'INVALID_ARGUMENTS',
      field: 'b',
    });
    const wrongType = await callTool.execute('c3', { name: 'add_numbers', arguments: { a: 1, b: 'two' } });
    expect(payloadOf(wrongType).error?.msg).toContain('"b"');
    expect(recorder.calls).toHaveLength(0);
  });

  it('answers an unknown name with TOOL_NOT_FOUND and close names', async () => {
    const { callTool } = setup();
    const result = await callTool.execute('c4', { name: 'add_number', arguments: {} });
    expect(result.isError).toBe(true);
    const error = payloadOf(result).error;
    expect(error?.code).toBe('TOOL_NOT_FOUND');
    expect(error?.suggestions?.[0]).toBe('add_numbers');
    expect(error?.msg).toContain('did you mean: add_numbers');
  });

  it('treats a tool hidden by the registry filters as unknown', async () => {
    const { recorder, callTool } = setup({}, { deny: ['delete_*'] });
    const result = await callTool.execute('c5', { name: 'delete_everything', arguments: {} });
    expect(payloadOf(result).error?.code).toBe('TOOL_NOT_FOUND');
    expect(recorder.calls).toHaveLength(0);
  });

  it('refuses router tools, so it cannot recurse', async () => {
    const { callTool } = setup();
    const result = await callTool.execute('c6', { name: 'call_tool', arguments: { name: 'add_numbers' } });
    expect(result.isError).toBe(true);
    expect(payloadOf(result).error?.msg).toContain('router tool');
  });

  it('refuses a non-read-only tool in plan mode and still calls read-only ones', async () => {
    const { recorder, callTool } = setup({ planMode: true });
    const refused = await callTool.execute('c7', { name: 'delete_everything', arguments: {} });
    expectPermissionDenied(refused, 'plan mode: delete_everything is not read-only');
    expect(recorder.calls).toHaveLength(0);
    const allowed = await callTool.execute('c8', { name: 'add_numbers', arguments: { a: 1, b: 1 } });
    expect(allowed.content).toEqual([{ type: 'text', text: '2' }]);
  });

  it('refuses an ownerOnly tool when the sender is not the owner, and reads the flag on every call', async () => {
    let owner = false;
    const { recorder, callTool } = setup({ senderIsOwner: () => owner });
    const refused = await callTool.execute('o1', { name: 'rotate_keys', arguments: {} });
    expectPermissionDenied(refused, 'rotate_keys is for the owner only, and the sender is not the owner');
    expect(recorder.calls).toHaveLength(0);
    const other = await callTool.execute('o2', { name: 'add_numbers', arguments: { a: 1, b: 2 } });
    expect(other.content).toEqual([{ type: 'text', text: '3' }]);
    owner = true;
    const allowed = await callTool.execute('o3', { name: 'rotate_keys', arguments: {} });
    expect(allowed.content).toEqual([{ type: 'text', text: 'rotated' }]);
    // The owner is the default: a library user runs their own agent.
    const byDefault = await setup().callTool.execute('o4', { name: 'rotate_keys', arguments: {} });
    expect(byDefault.isError).toBeFalsy();
  });

  it('reads a plan-mode getter on every call', async () => {
    let planning = true;
    const { callTool } = setup({ planMode: () => planning });
    expect((await callTool.execute('c9', { name: 'delete_everything', arguments: {} })).isError).toBe(true);
    planning = false;
    const result = await callTool.execute('c10', { name: 'delete_everything', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'deleted' }]);
  });

  it('turns a throwing tool into an isError result', async () => {
    const { callTool } = setup();
    const result = await callTool.execute('c11', { name: 'explode', arguments: {} });
    expect(result.isError).toBe(true);
    expect(payloadOf(result).error?.msg).toBe('Tool explode failed: kaboom');
  });

  it('resolves tools produced by a factory', async () => {
    const { registry, callTool } = setup({ context: { agentId: 'a1' } });
    registry.register(
      (context) => ({
        name: 'whoami',
        description: 'Agent id',
        readOnly: true,
        parameters: { type: 'object', properties: {} },
        execute: async () => ({ content: [{ type: 'text', text: String(context.agentId) }] }),
      }),
      { name: 'whoami' },
    );
    const result = await callTool.execute('c12', { name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'a1' }]);
  });

  it('renders its own errors in the compact format when asked', async () => {
    const { callTool } = setup({ format: 'compact' });
    const result = await callTool.execute('c13', { name: 'nope', arguments: {} });
    const text = (result.content[0] as { text: string }).text;
    expect(text.split('\n')[0]).toBe('❌ mcp ToolNotFound: unknown tool: nope');
    expect(text).toContain('state: error | data: {type: "ToolNotFound"');
    expect(result.details).toMatchObject({ name: 'nope', error: { code: 'TOOL_NOT_FOUND' } });
  });
});

describe('planModeFilter and ownerOnlyFilter', () => {
  const tools = nativeTools({ calls: [], signals: [] });
  const names = (list: Tool[]) => list.map((tool) => tool.name);

  it('plan mode keeps only tools declared read-only', () => {
    expect(names(planModeFilter(tools))).toEqual(['add_numbers', 'explode']);
  });

  it('drops ownerOnly tools for a sender who is not the owner, and nothing for the owner', () => {
    expect(names(ownerOnlyFilter(tools, false))).toEqual(['add_numbers', 'delete_everything', 'explode']);
    expect(names(ownerOnlyFilter(tools, true))).toEqual(names(tools));
  });
});
