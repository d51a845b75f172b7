import { describe, expect, it } from 'vitest';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { RegistryChange } from '../../src/registry/tool-catalog.js';
import { textResult } from '../../src/tool/result.js';
import type { Tool } from '../../src/tool/tool.js';

function tool(name: string, extra: Partial<Tool> = {}): Tool {
  return {
    name,
    description: `the ${name} tool`,
    parameters: { type: 'object', properties: {} },
    execute: async () => textResult(name),
    ...extra,
  };
}

describe('ToolRegistry', () => {
  it('registers, gets, lists and unregisters tools with change events', () => {
    const registry = new ToolRegistry();
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    const unregister = registry.register(tool('alpha'));
    registry.register(tool('beta', { readOnly: true }));
    expect(registry.get('alpha')?.source).toBe('native');
    expect(registry.list().map((row) => row.name)).toEqual(['alpha', 'beta']);
    expect(registry.list()[1]?.readOnly).toBe(true);
    unregister();
    expect(registry.get('alpha')).toBeUndefined();
    expect(registry.unregister('beta')).toBe(true);
    expect(registry.unregister('beta')).toBe(false);
    expect(changes).toEqual([
      { added: ['alpha'], removed: [], owner: undefined },
      { added: ['beta'], removed: [], owner: undefined },
      { added: [], removed: ['alpha'], owner: undefined },
      { added: [], removed: ['beta'], owner: undefined },
    ]);
  });

  it('refuses illegal and duplicate names unless replace is set', () => {
    const registry = new ToolRegistry();
    registry.register(tool('alpha'));
    expect(() => registry.register(tool('alpha'))).toThrow(McpToolsError);
    expect(() => registry.register(tool('has space'))).toThrow(/must match/);
    registry.register(tool('alpha', { description: 'second' }), { replace: true });
    expect(registry.get('alpha')?.description).toBe('second');
  });

  it('runs factories at resolveAll with the context: null opts out, arrays flatten, throws are reported', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('static'));
    registry.register((context) => (context.sandboxed ? null : tool('unsandboxed')), { name: 'unsandboxed' });
    registry.register(
      (context) => [tool(`ws_a`, { description: String(context.workspaceDir) }), tool('ws_b')],
      {
        names: ['ws_a', 'ws_b'],
      },
    );
    registry.register(
      () => {
        throw new Error('factory broke');
      },
      { name: 'broken' },
    );
    const errors: string[] = [];
    const tools = await registry.resolveAll(
      { workspaceDir: '/work', sandboxed: false },
      { onError: (error, names) => errors.push(`${names.join(',')}: ${(error as Error).message}`) },
    );
    expect(tools.map((entry) => entry.name)).toEqual(['static', 'unsandboxed', 'ws_a', 'ws_b']);
    expect(tools[2]?.description).toBe('/work');
    expect(errors).toEqual(['broken: factory broke']);
    const sandboxed = await registry.resolveAll({ sandboxed: true });
    expect(sandboxed.map((entry) => entry.name)).not.toContain('unsandboxed');
  });

  it('keeps a factory without names in its place, out of the catalog, and runs a factory of many names once', async () => {
    const registry = new ToolRegistry();
    let runs = 0;
    registry.register(tool('first'));
    const unregister = registry.register(() => tool('unnamed_a'));
    registry.register(
      () => {
        runs++;
        return [tool('pair_a'), tool('pair_b')];
      },
      { names: ['pair_a', 'pair_b'] },
    );
    registry.register(() => tool('unnamed_b'));
    registry.register(tool('last'));
    const names = async () => (await registry.resolveAll()).map((entry) => entry.name);
    expect(await names()).toEqual(['first', 'unnamed_a', 'pair_a', 'pair_b', 'unnamed_b', 'last']);
    expect(runs).toBe(1);
    expect(registry.names()).toEqual(['first', 'pair_a', 'pair_b', 'last']);
    expect(registry.list().map((row) => row.name)).toEqual(['first', 'pair_a', 'pair_b', 'last']);
    unregister();
    expect(await names()).toEqual(['first', 'pair_a', 'pair_b', 'unnamed_b', 'last']);
    registry.unregister('pair_b');
    expect(await names()).toEqual(['first', 'unnamed_b', 'last']);
  });

  it('applies allow/deny globs to native and MCP tools alike, by exposed or server/original name', async () => {
    const registry = new ToolRegistry({ deny: ['*delete*', 'files/write_*'] });
    registry.register(tool('delete_everything'));
    registry.register(
      tool('files__write_file', { source: 'mcp', server: 'files', originalName: 'write_file' }),
    );
    registry.register(
      tool('files__read_file', { source: 'mcp', server: 'files', originalName: 'read_file' }),
    );
    registry.register(tool('word_count'));
    const names = (await registry.resolveAll()).map((entry) => entry.name);
    expect(names).toEqual(['files__read_file', 'word_count']);
    expect(registry.get('delete_everything')).toBeUndefined();
    expect(registry.list().find((row) => row.name === 'delete_everything')?.enabled).toBe(false);
  });

  it('keeps optional tools off until an allow glob names them, and setFilter reports what appeared', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('risky'), { optional: true });
    registry.register(tool('safe'));
    expect((await registry.resolveAll()).map((entry) => entry.name)).toEqual(['safe']);
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    registry.setFilter({ allow: ['risky', 'safe'] });
    expect((await registry.resolveAll()).map((entry) => entry.name)).toEqual(['risky', 'safe']);
    expect(changes).toEqual([{ added: ['risky'], removed: [] }]);
  });

  it('replaceOwner swaps one owner’s tools in a single change event', () => {
    const registry = new ToolRegistry();
    registry.register(tool('native'));
    registry.replaceOwner('mcp:s', [tool('s__a'), tool('s__b')], { source: 'mcp', server: 's' });
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    registry.replaceOwner('mcp:s', [tool('s__b'), tool('s__c')], { source: 'mcp', server: 's' });
    expect(changes).toEqual([{ added: ['s__c'], removed: ['s__a'], owner: 'mcp:s' }]);
    expect(registry.names({ owner: 'mcp:s' }).sort()).toEqual(['s__b', 's__c']);
    expect(registry.get('s__c')?.category).toBe('s');
    expect(registry.unregisterOwner('mcp:s').sort()).toEqual(['s__b', 's__c']);
    expect(registry.names()).toEqual(['native']);
  });

  it('keeps an owner’s other tools when one of them is unregistered by name or replaced by another owner', () => {
    const registry = new ToolRegistry();
    registry.replaceOwner('mcp:s', [tool('s__a'), tool('s__b'), tool('s__c')], {
      source: 'mcp',
      server: 's',
    });
    expect(registry.unregister('s__b')).toBe(true);
    expect(registry.names({ owner: 'mcp:s' })).toEqual(['s__a', 's__c']);
    registry.register(tool('s__c'), { owner: 'plugin:p', replace: true });
    expect(registry.names({ owner: 'mcp:s' })).toEqual(['s__a']);
    expect(registry.names({ owner: 'plugin:p' })).toEqual(['s__c']);
    expect(registry.unregisterOwner('mcp:s')).toEqual(['s__a']);
    expect(registry.unregisterOwner('mcp:s')).toEqual([]);
    expect(registry.names()).toEqual(['s__c']);
  });

  it('lists an owner’s tools registered one by one in order, after any of them is removed', () => {
    const registry = new ToolRegistry();
    for (const name of ['p_a', 'p_b', 'p_c']) registry.register(tool(name), { owner: 'plugin:p' });
    expect(registry.unregister('p_a')).toBe(true);
    expect(registry.names({ owner: 'plugin:p' })).toEqual(['p_b', 'p_c']);
    registry.register(tool('p_d'), { owner: 'plugin:p' });
    expect(registry.unregister('p_c')).toBe(true);
    expect(registry.names({ owner: 'plugin:p' })).toEqual(['p_b', 'p_d']);
    expect(registry.unregisterOwner('plugin:p')).toEqual(['p_b', 'p_d']);
    registry.register(tool('p_e'), { owner: 'plugin:p' });
    expect(registry.names({ owner: 'plugin:p' })).toEqual(['p_e']);
  });

  it('registered() gives a tool and its owner even when filtered; a tool is removed by the name it was registered under', () => {
    const registry = new ToolRegistry({ deny: ['s__hidden'] });
    registry.replaceOwner('mcp:s', [tool('s__a'), tool('s__hidden')], { source: 'mcp', server: 's' });
    registry.register(() => tool('made'), { name: 'made' });
    expect(registry.get('s__hidden')).toBeUndefined();
    expect(registry.registered('s__hidden')?.owner).toBe('mcp:s');
    expect(registry.registered('s__hidden')?.tool.name).toBe('s__hidden');
    expect(registry.registered('made')).toBeUndefined();
    expect(registry.registered('absent')).toBeUndefined();
    const renamed = tool('before');
    registry.register(renamed);
    renamed.name = 'after';
    expect(registry.names()).toContain('before');
    expect(registry.unregister('before')).toBe(true);
    expect(registry.has('before')).toBe(false);
    expect(registry.unregisterOwner('mcp:s')).toEqual(['s__a', 's__hidden']);
    expect(registry.registered('s__a')).toBeUndefined();
  });

  it('a throwing listener does not break registration', () => {
    const registry = new ToolRegistry();
    registry.onChange(() => {
      throw new Error('listener');
    });
    expect(() => registry.register(tool('alpha'))).not.toThrow();
    expect(registry.has('alpha')).toBe(true);
  });
});
