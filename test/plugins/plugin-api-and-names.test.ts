import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import { TOOL_NAME_PATTERN } from '../../src/registry/tool-name.js';
import { textResult } from '../../src/tool/result.js';
import type { Tool } from '../../src/tool/tool.js';
import { collectingLogger, fixture, fixtures, textOf } from './plugin-test-helpers.js';

const nativeEcho: Tool = {
  name: 'echo',
  description: 'Native echo',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  execute: async (_id, params) => textResult(String(params.text)),
};

describe('the api given to register', () => {
  it('accepts known and unknown register*/on* calls as logged no-ops and keeps own members through a spread', async () => {
    const logger = collectingLogger();
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([{ spec: fixture('unknown-api-plugin.mjs') }], registry, {
      logger,
      config: { agents: { list: [] } },
      cwd: '/srv/app',
    });
    const plugin = plugins[0]!;
    expect(plugin).toMatchObject({ id: 'unknown-api-plugin', status: 'loaded', tools: ['api_probe'] });
    expect(plugin.ignored).toMatchObject({
      registerHook: 2,
      on: 1,
      registerService: 1,
      registerCommand: 1,
      registerHttpRoute: 1,
      registerChannel: 1,
      registerProvider: 1,
      registerCli: 1,
      registerGatewayMethod: 1,
      registerQuantumEntangler: 2,
      onFutureEvent: 1,
    });
    expect(logger.lines).toContain(
      'debug [plugin:unknown-api-plugin] registerHook "before_tool_call" accepted as a no-op (not supported outside OpenClaw)',
    );
    expect(logger.lines).toContain('info [plugin:unknown-api-plugin] registering the probe tool');
    expect(logger.lines).toContain('warn [plugin:unknown-api-plugin] a warning with an error detail');
    const tool = (await registry.resolveAll()).find((candidate) => candidate.name === 'api_probe')!;
    const details = (await tool.execute('c', {})).details as Record<string, unknown>;
    expect(details).toMatchObject({
      id: 'unknown-api-plugin',
      name: 'Unknown API fixture',
      registrationMode: 'full',
      pluginConfig: {},
      hostConfigSeen: { agents: { list: [] } },
      // Relative to the plugin's folder, as in OpenClaw, not to `cwd`.
      resolved: `${fixtures}data/file.txt`,
      rootDir: fixtures.replace(/\/$/, ''),
      source: fixture('unknown-api-plugin.mjs'),
      runtimeSource: fixture('unknown-api-plugin.mjs'),
      spreadHasRegisterTool: true,
      gatewayOnly: 'not available outside the OpenClaw gateway: runtime.some.deep.feature.call()',
      facades: ['function', 'function', 'function', false],
    });
    expect(details.ownKeys).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'version',
        'description',
        'source',
        'rootDir',
        'registrationMode',
        'config',
        'pluginConfig',
        'runtime',
        'logger',
        'resolvePath',
        'runtimeSource',
        'session',
        'agent',
        'runContext',
        'lifecycle',
        'on',
      ]),
    );
  });
});

describe('plugin tool names', () => {
  it('namespaces names shared by two plugins or taken by an existing tool, legalizes illegal ones, never fails', async () => {
    const registry = new ToolRegistry();
    registry.register(nativeEcho);
    const { plugins } = await loadOpenClawPlugins(
      [fixture('collide-a.mjs'), fixture('collide-b.mjs')],
      registry,
    );
    expect(plugins.map((plugin) => plugin.status)).toEqual(['loaded', 'loaded']);
    const a = plugins[0]!.tools;
    expect(a.slice(0, 3)).toEqual(['collide-a__search', 'collide-a__echo', 'only_a']);
    expect(a[3]).toMatch(/^bad_name__[0-9a-f]{6}$/);
    expect(plugins[1]!.tools).toEqual(['collide-b__search']);
    const tools = await registry.resolveAll();
    for (const tool of tools) expect(tool.name).toMatch(TOOL_NAME_PATTERN);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(textOf(await byName.get('echo')!.execute('c', { text: 'native' }))).toBe('native');
    expect(textOf(await byName.get('collide-a__echo')!.execute('c', {}))).toBe('A echo');
    expect(textOf(await byName.get('collide-a__search')!.execute('c', {}))).toBe('A');
    expect(textOf(await byName.get('collide-b__search')!.execute('c', {}))).toBe('B');
    expect(byName.get('collide-b__search')).toMatchObject({
      originalName: 'search',
      server: 'collide-b',
      label: 'search',
    });
    expect(byName.get(a[3]!)?.originalName).toBe('bad name!');
  });

  it('gives the same names whatever the load order', async () => {
    const first = new ToolRegistry();
    const second = new ToolRegistry();
    const one = await loadOpenClawPlugins([fixture('collide-a.mjs'), fixture('collide-b.mjs')], first);
    const two = await loadOpenClawPlugins([fixture('collide-b.mjs'), fixture('collide-a.mjs')], second);
    expect(new Set(first.names())).toEqual(new Set(second.names()));
    expect(one.plugins[0]?.tools).toEqual(two.plugins[1]?.tools);
  });
});

describe('optional plugin tools and allow/deny', () => {
  it('keeps optional tools (options, tool object, manifest toolMetadata) off until allowed', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([fixture('optional-plugin')], registry);
    expect(plugins[0]?.optionalTools.sort()).toEqual([
      'opt_by_manifest',
      'opt_by_options',
      'opt_by_tool',
      'opt_factory',
    ]);
    expect((await registry.resolveAll()).map((tool) => tool.name)).toEqual(['always_on']);
    registry.setFilter({ allow: ['opt_by_tool', 'always_on'] });
    expect((await registry.resolveAll()).map((tool) => tool.name).sort()).toEqual([
      'always_on',
      'opt_by_tool',
    ]);
    registry.setFilter({ allow: ['optional-plugin/*'] });
    expect((await registry.resolveAll()).map((tool) => tool.name).sort()).toEqual([
      'always_on',
      'opt_by_manifest',
      'opt_by_options',
      'opt_by_tool',
      'opt_factory',
    ]);
  });

  it('switches optional tools on through the spec allow list and drops denied tools', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(
      [{ spec: fixture('optional-plugin'), allow: ['opt_by_*', 'always_on'], deny: ['opt_by_tool'] }],
      registry,
    );
    expect(plugins[0]?.tools.sort()).toEqual(['always_on', 'opt_by_manifest', 'opt_by_options']);
    expect(plugins[0]?.optionalTools).toEqual([]);
    expect((await registry.resolveAll()).map((tool) => tool.name).sort()).toEqual([
      'always_on',
      'opt_by_manifest',
      'opt_by_options',
    ]);
  });

  it('switches on only the allowed tools of an optional factory', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(
      [{ spec: fixture('mixed-factory-plugin.mjs'), allow: ['mix_a'] }],
      registry,
    );
    expect(plugins[0]?.tools).toEqual(['mix_a']);
    expect((await registry.resolveAll()).map((tool) => tool.name)).toEqual(['mix_a']);
  });

  it('allows every optional tool of a plugin named by its id', async () => {
    const registry = new ToolRegistry();
    await loadOpenClawPlugins([{ spec: fixture('optional-plugin'), allow: ['optional-plugin'] }], registry);
    expect((await registry.resolveAll()).length).toBe(5);
  });
});

describe('late registrations and unload', () => {
  it('registers tools added after loading and removes everything on unload', async () => {
    const registry = new ToolRegistry();
    const changes: string[][] = [];
    registry.onChange((change) => changes.push(change.added));
    const loaded = await loadOpenClawPlugins([fixture('late-plugin.mjs'), fixture('cjs-plugin')], registry);
    expect(registry.names().sort()).toEqual(['cjs_greet', 'late_first']);
    await new Promise<void>((resolve) => {
      if (registry.has('late_second')) return resolve();
      const stop = registry.onChange((change) => {
        if (change.added.includes('late_second')) {
          stop();
          resolve();
        }
      });
    });
    expect(registry.get('late_second')?.originalName).toBe('late_second');
    expect(loaded.plugins[0]?.tools).toEqual(['late_first', 'late_second']);
    loaded.unload();
    loaded.unload();
    expect(registry.names()).toEqual([]);
    expect(changes.flat()).toEqual(['late_first', 'cjs_greet', 'late_second']);
  });
});
