import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import type { Tool } from '../../src/tool/tool.js';
import { collectingLogger, fixture, textOf } from './plugin-test-helpers.js';

async function toolNamed(registry: ToolRegistry, name: string, context = {}): Promise<Tool> {
  const tool = (await registry.resolveAll(context)).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`tool ${name} not resolved`);
  return tool;
}

describe('loadOpenClawPlugins with entry formats', () => {
  it('loads a CommonJS package entry with manifest config defaults applied', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([fixture('cjs-plugin')], registry);
    expect(plugins[0]).toMatchObject({
      id: 'cjs-plugin',
      name: 'CJS fixture',
      version: '1.2.3',
      status: 'loaded',
    });
    expect(plugins[0]?.tools).toEqual(['cjs_greet']);
    const tool = await toolNamed(registry, 'cjs_greet');
    expect(tool).toMatchObject({
      source: 'plugin',
      server: 'cjs-plugin',
      category: 'cjs-plugin',
      originalName: 'cjs_greet',
    });
    const result = await tool.execute('call-1', { name: 'Ada' });
    expect(textOf(result)).toBe('Hello, Ada!');
    expect(result.details).toEqual({});
  });

  it('passes the spec config to the plugin after validation', async () => {
    const registry = new ToolRegistry();
    await loadOpenClawPlugins([{ spec: fixture('cjs-plugin'), config: { greeting: 'Hoi' } }], registry);
    const result = await (await toolNamed(registry, 'cjs_greet')).execute('c', { name: 'Bo' });
    expect(textOf(result)).toBe('Hoi, Bo!');
  });

  it('loads an ESM entry that imports openclaw/plugin-sdk subpaths without OpenClaw installed', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([fixture('esm-plugin.mjs')], registry);
    expect(plugins[0]).toMatchObject({ id: 'esm-plugin', name: 'ESM fixture', status: 'loaded' });
    const result = await (await toolNamed(registry, 'esm_sum')).execute('c', { a: 2, b: 40 });
    expect(JSON.parse(textOf(result))).toEqual({ sum: 42 });
    expect(result.details).toEqual({ sum: 42 });
  });

  it('loads a TypeScript entry and turns its TypeBox schema into plain JSON Schema', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([fixture('ts-plugin')], registry);
    expect(plugins[0]).toMatchObject({ id: 'ts-plugin', version: '0.0.1', status: 'loaded' });
    const tool = await toolNamed(registry, 'ts_shout');
    expect(tool.parameters.type).toBe('object');
    expect(tool.parameters.required).toEqual(['text']);
    expect(Object.getOwnPropertySymbols(tool.parameters)).toEqual([]);
    expect(Object.getOwnPropertySymbols(tool.parameters.properties?.times as object)).toEqual([]);
    expect(JSON.parse(JSON.stringify(tool.parameters))).toEqual(tool.parameters);
    expect(textOf(await tool.execute('c', { text: 'hey', times: 2 }))).toBe('HEY HEY');
    const missing = await tool.execute('c', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('Tool ts-plugin/ts_shout failed: text required');
  });

  it('accepts a definition with the older activate() and keeps its this', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([fixture('activate-plugin.cjs')], registry);
    expect(plugins[0]).toMatchObject({ id: 'activate-plugin', status: 'loaded', tools: ['activated_ping'] });
    const result = await (await toolNamed(registry, 'activated_ping')).execute('c', {});
    expect(textOf(result)).toBe('pong from activate-plugin');
    expect(result.details).toEqual({ ok: true });
  });

  it('accepts a plain function export whose id falls back to the file name', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([fixture('function-plugin.mjs')], registry);
    expect(plugins[0]).toMatchObject({ id: 'function-plugin', status: 'loaded' });
    expect(plugins[0]?.tools).toEqual(['ctx_whoami', 'ctx_nested', 'ctx_broken']);
  });
});

describe('loadOpenClawPlugins tool factories', () => {
  it('calls factories with the OpenClaw context, flattens arrays and names undeclared tools at resolve time', async () => {
    const logger = collectingLogger();
    const registry = new ToolRegistry();
    await loadOpenClawPlugins([fixture('function-plugin.mjs')], registry, { logger, config: { host: true } });
    const context = {
      workspaceDir: '/work/space',
      agentId: 'agent-7',
      sessionKey: 'sk-1',
      sessionId: 'sid-1',
    };
    const tools = await registry.resolveAll(context);
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ctx_nested', 'ctx_undeclared', 'ctx_whoami']);
    const whoami = tools.find((tool) => tool.name === 'ctx_whoami')!;
    const result = await whoami.execute('c', {});
    expect(JSON.parse(textOf(result))).toEqual({ agentId: 'agent-7', sessionKey: 'sk-1' });
    expect(result.details).toEqual({ workspaceDir: '/work/space', sessionId: 'sid-1', hasConfig: true });
    expect(whoami.parameters).toEqual({ type: 'object', properties: {} });
    expect(logger.lines.some((line) => line.includes('factory exploded'))).toBe(true);
  });

  it('drops the tools of a factory that returns null for the context', async () => {
    const registry = new ToolRegistry();
    await loadOpenClawPlugins([fixture('function-plugin.mjs')], registry, { logger: {} });
    const names = (await registry.resolveAll({ sandboxed: true })).map((tool) => tool.name);
    expect(names).toEqual(['ctx_undeclared']);
  });
});

describe('loadOpenClawPlugins results', () => {
  it('normalises raw objects, strings, missing details, throws and progress updates', async () => {
    const registry = new ToolRegistry();
    await loadOpenClawPlugins([fixture('esm-plugin.mjs')], registry);
    const raw = await (await toolNamed(registry, 'esm_raw_object')).execute('c', {});
    expect(raw).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ answer: 42 }, null, 2) }],
      details: { answer: 42 },
    });
    const text = await (await toolNamed(registry, 'esm_raw_string')).execute('c', {});
    expect(text).toEqual({ content: [{ type: 'text', text: 'just text' }], details: {} });
    const noDetails = await (await toolNamed(registry, 'esm_no_details')).execute('c', {});
    expect(noDetails.details).toEqual({});
    expect(noDetails.content).toEqual([
      { type: 'text', text: 'no details here' },
      { type: 'text', text: 'loose string' },
    ]);
    const thrown = await (await toolNamed(registry, 'esm_throws')).execute('c', {});
    expect(thrown).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Tool esm-plugin/esm_throws failed: the backend is down' }],
    });
    const updates: unknown[] = [];
    const done = await (await toolNamed(registry, 'esm_progress')).execute('c', {}, undefined, (update) =>
      updates.push(update),
    );
    expect(textOf(done)).toBe('done');
    expect(updates).toEqual([{ content: [{ type: 'text', text: 'half way' }], details: { step: 1 } }]);
  });

  it('answers an aborted call at once even when the plugin ignores the signal', async () => {
    const registry = new ToolRegistry();
    await loadOpenClawPlugins([fixture('esm-plugin.mjs')], registry);
    const tool = await toolNamed(registry, 'esm_slow');
    const controller = new AbortController();
    const pending = tool.execute('c', {}, controller.signal);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Tool esm-plugin/esm_slow failed: aborted' }],
    });
    const already = await tool.execute('c', {}, AbortSignal.abort());
    expect(already.isError).toBe(true);
  });
});

describe('loadOpenClawPlugins isolation', () => {
  it('reports a plugin that throws in register, a bad import and a missing package, and loads the rest', async () => {
    const logger = collectingLogger();
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(
      [
        fixture('throwing-plugin.mjs'),
        fixture('bad-import-plugin.mjs'),
        '@nobody/not-an-installed-plugin',
        fixture('does-not-exist'),
        fixture('cjs-plugin'),
        { spec: fixture('activate-plugin.cjs'), enabled: false },
      ],
      registry,
      { logger },
    );
    expect(plugins.map((plugin) => [plugin.id, plugin.status])).toEqual([
      ['throwing-plugin', 'error'],
      ['bad-import-plugin', 'error'],
      ['@nobody/not-an-installed-plugin', 'error'],
      [fixture('does-not-exist'), 'error'],
      ['cjs-plugin', 'loaded'],
      [fixture('activate-plugin.cjs'), 'disabled'],
    ]);
    expect(plugins[0]?.error).toBe('Plugin "throwing-plugin" threw in register: register blew up');
    expect(plugins[0]?.tools).toEqual([]);
    // An SDK subpath mcptools does not provide is named, not reported as a missing file.
    expect(plugins[1]?.error).toBe(
      'Plugin "bad-import-plugin" failed to load: imports "openclaw/plugin-sdk/channel-runtime-that-does-not-exist", which mcptools does not provide; install openclaw beside mcptools (it needs Node 24) to load this plugin',
    );
    expect(plugins[2]?.error).toBe(
      'Plugin "@nobody/not-an-installed-plugin" failed to load: Plugin package "@nobody/not-an-installed-plugin" is not installed',
    );
    expect(registry.has('never_seen')).toBe(false);
    expect((await registry.resolveAll()).map((tool) => tool.name)).toEqual(['cjs_greet']);
    expect(logger.lines.filter((line) => line.startsWith('warn Plugin')).length).toBe(4);
  });

  it('refuses an invalid pluginConfig with an error naming the plugin and the field, without the value', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(
      [
        {
          spec: fixture('config-plugin'),
          config: { apiUrl: 'http://127.0.0.1:1/x', retries: -1, token: 'sekrit-token' },
        },
        { spec: fixture('cjs-plugin'), config: { greting: 'typo' } },
      ],
      registry,
      { logger: {} },
    );
    expect(plugins[0]).toMatchObject({ id: 'config-plugin', status: 'error' });
    expect(plugins[0]?.error).toMatch(
      /^Plugin "config-plugin" config is invalid at "retries": retries: must be >= 0/,
    );
    expect(plugins[0]?.error).not.toContain('sekrit');
    expect(plugins[1]?.error).toMatch(/^Plugin "cjs-plugin" config is invalid at "greting"/);
    expect(registry.names()).toEqual([]);
  });

  it('reports a missing required config field and accepts a valid config with defaults', async () => {
    const registry = new ToolRegistry();
    const missing = await loadOpenClawPlugins([fixture('config-plugin')], registry, { logger: {} });
    expect(missing.plugins[0]?.error).toMatch(/config is invalid at "apiUrl"/);
    const valid = await loadOpenClawPlugins(
      [{ spec: fixture('config-plugin'), config: { apiUrl: 'http://127.0.0.1:9/' } }],
      registry,
    );
    expect(valid.plugins[0]?.status).toBe('loaded');
    const result = await (await toolNamed(registry, 'config_show')).execute('c', {});
    expect(result.details).toEqual({ apiUrl: 'http://127.0.0.1:9/', retries: 3 });
  });

  it('reports a plugin loaded twice and keeps the first', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins([fixture('cjs-plugin'), fixture('cjs-plugin')], registry);
    expect(plugins.map((plugin) => plugin.status)).toEqual(['loaded', 'error']);
    expect(plugins[1]?.error).toContain('loaded twice');
    expect(registry.names()).toEqual(['cjs_greet']);
  });

  it('awaits an async register and gives up on one that never settles', async () => {
    const registry = new ToolRegistry();
    const { plugins } = await loadOpenClawPlugins(
      [fixture('async-plugin.mjs'), fixture('hanging-plugin.mjs')],
      registry,
      { timeoutMs: 300, logger: {} },
    );
    expect(plugins[0]).toMatchObject({ id: 'async-plugin', status: 'loaded', tools: ['async_ready'] });
    expect(plugins[1]).toMatchObject({ status: 'error' });
    expect(plugins[1]?.error).toBe(`Plugin "${fixture('hanging-plugin.mjs')}" took longer than 300 ms`);
    expect(registry.names()).toEqual(['async_ready']);
  });

  it('rejects with ABORTED when the signal aborts and registers nothing', async () => {
    const registry = new ToolRegistry();
    await expect(
      loadOpenClawPlugins([fixture('cjs-plugin')], registry, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect(registry.names()).toEqual([]);
  });
});
