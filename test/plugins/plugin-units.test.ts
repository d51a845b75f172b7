import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { pluginSdkAliases, resolvePluginEntryExport } from '../../src/plugins/import-plugin-entry.js';
import { normalizePluginResult } from '../../src/plugins/normalize-plugin-result.js';
import { definePluginEntry } from '../../src/plugins/plugin-sdk/plugin-entry.js';
import { readStringParam, ToolInputError } from '../../src/plugins/plugin-sdk/tool-params.js';
import { planPluginToolNames, pluginToolKey } from '../../src/plugins/plugin-tool-name.js';
import { toPluginJsonSchema } from '../../src/plugins/plugin-tool-schema.js';
import { validatePluginConfig } from '../../src/plugins/validate-plugin-config.js';

describe('toPluginJsonSchema', () => {
  it('strips TypeBox symbols and keeps the JSON Schema', () => {
    const schema = toPluginJsonSchema(Type.Object({ q: Type.String(), n: Type.Optional(Type.Number()) }));
    expect(schema).toEqual({
      type: 'object',
      properties: { q: { type: 'string' }, n: { type: 'number' } },
      required: ['q'],
    });
    expect(Object.getOwnPropertySymbols(schema.properties?.n as object)).toEqual([]);
  });

  it('always gives a top-level object', () => {
    expect(toPluginJsonSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(toPluginJsonSchema({ properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    expect(toPluginJsonSchema({ type: 'string' })).toEqual({
      type: 'object',
      properties: { value: { type: 'string' } },
      required: ['value'],
    });
  });

  it('merges a top-level union of objects, requiring only what every branch requires', () => {
    const union = Type.Union([
      Type.Object({ action: Type.Literal('get'), id: Type.String() }),
      Type.Object({ action: Type.Literal('list'), limit: Type.Optional(Type.Number()) }),
    ]);
    const schema = toPluginJsonSchema(union);
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['action', 'id', 'limit']);
    expect(schema.required).toEqual(['action']);
  });
});

describe('normalizePluginResult', () => {
  it('keeps isError and structured fields and adds details', () => {
    expect(normalizePluginResult({ content: [{ type: 'text', text: 'x' }], isError: true })).toEqual({
      content: [{ type: 'text', text: 'x' }],
      isError: true,
      details: {},
    });
  });

  it('turns unknown blocks and odd values into text without losing them', () => {
    expect(normalizePluginResult({ content: [{ type: 'video', url: 'u' }], details: 1 })).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ type: 'video', url: 'u' }, null, 2) }],
      details: 1,
    });
    expect(normalizePluginResult(7)).toEqual({ content: [{ type: 'text', text: '7' }], details: 7 });
    expect(normalizePluginResult(undefined)).toEqual({ content: [], details: {} });
  });
});

describe('planPluginToolNames', () => {
  it('namespaces shared and taken names and keeps the rest', () => {
    const names = planPluginToolNames(
      [
        { pluginId: 'a', originalName: 'search' },
        { pluginId: 'b', originalName: 'search' },
        { pluginId: 'a', originalName: 'fetch' },
        { pluginId: 'b', originalName: 'own' },
      ],
      (name) => name === 'fetch',
    );
    expect(names.get(pluginToolKey('a', 'search'))).toBe('a__search');
    expect(names.get(pluginToolKey('b', 'search'))).toBe('b__search');
    expect(names.get(pluginToolKey('a', 'fetch'))).toBe('a__fetch');
    expect(names.get(pluginToolKey('b', 'own'))).toBe('own');
  });

  it('stays within the length budget and unique when namespacing is not enough', () => {
    const long = 'x'.repeat(70);
    const names = planPluginToolNames([{ pluginId: 'plugin', originalName: long }], () => false, {
      maxLength: 40,
    });
    const name = names.get(pluginToolKey('plugin', long))!;
    expect(name.length).toBeLessThanOrEqual(40);
    expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe('validatePluginConfig', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      port: { type: 'number', default: 9377 },
      nested: { type: 'object', properties: { on: { type: 'boolean' } } },
    },
  };

  it('applies defaults without touching the input', () => {
    const input = { nested: { on: true } };
    expect(validatePluginConfig('p', schema, input)).toEqual({ port: 9377, nested: { on: true } });
    expect(input).toEqual({ nested: { on: true } });
    expect(validatePluginConfig('p', undefined, undefined)).toEqual({});
  });

  it('names the plugin and the nested field', () => {
    let caught: unknown;
    try {
      validatePluginConfig('p', schema, { nested: { on: 'yes' } });
    } catch (error) {
      caught = error;
    }
    expect(McpToolsError.isInstance(caught)).toBe(true);
    expect((caught as McpToolsError).code).toBe('CONFIG_INVALID');
    expect((caught as McpToolsError).data).toEqual({ plugin: 'p', field: 'nested.on' });
    expect((caught as Error).message).toBe(
      'Plugin "p" config is invalid at "nested.on": nested.on: must be boolean',
    );
  });
});

describe('plugin entry helpers', () => {
  it('finds register under default, module and activate', () => {
    const register = () => undefined;
    expect(resolvePluginEntryExport({ default: { default: register } }, 'f').register).toBe(register);
    expect(resolvePluginEntryExport({ module: { activate: register } }, 'f').register).toBe(register);
    expect(() => resolvePluginEntryExport({ default: 42 }, 'entry.js')).toThrow(
      /entry\.js exports no register/,
    );
  });

  it('aliases the root and each subpath of openclaw/plugin-sdk to our files', () => {
    const aliases = pluginSdkAliases();
    expect(aliases['openclaw/plugin-sdk']).toMatch(/plugin-sdk[\\/]index\.(ts|js)$/);
    expect(aliases['openclaw/plugin-sdk/plugin-entry']).toMatch(/plugin-entry\.(ts|js)$/);
    expect(aliases['openclaw/plugin-sdk/core']).toBe(aliases['openclaw/plugin-sdk']);
    expect(aliases['openclaw/plugin-sdk/agent-runtime']).toBe(aliases['openclaw/plugin-sdk']);
  });

  it('aliases openclaw/plugin-sdk/* to a real openclaw installed beside mcptools, and only its subpaths', () => {
    const real = new Map([
      ['plugin-entry', '/opt/openclaw/dist/plugin-sdk/plugin-entry.js'],
      ['core', '/opt/openclaw/dist/plugin-sdk/core.js'],
    ]);
    const aliases = pluginSdkAliases({ real });
    expect(aliases['openclaw/plugin-sdk/plugin-entry']).toBe('/opt/openclaw/dist/plugin-sdk/plugin-entry.js');
    expect(aliases['clawdbot/plugin-sdk/core']).toBe('/opt/openclaw/dist/plugin-sdk/core.js');
    // Ours are not mixed in: an import OpenClaw lacks fails as it would in OpenClaw.
    expect(aliases['openclaw/plugin-sdk/tool-results']).toBeUndefined();
    // The removed root stays ours when lenient, and fails the plugin under strict.
    expect(aliases['openclaw/plugin-sdk']).toMatch(/plugin-sdk[\\/]index\.(ts|js)$/);
    expect(pluginSdkAliases({ real, strict: true })['openclaw/plugin-sdk']).toMatch(
      /removed-sdk-root\.(ts|js)$/,
    );
    expect(pluginSdkAliases({ real: false })['openclaw/plugin-sdk/tool-results']).toMatch(
      /tool-results\.(ts|js)$/,
    );
  });

  it('definePluginEntry defaults to the empty config schema; readStringParam throws ToolInputError', () => {
    const entry = definePluginEntry({ id: 'x', name: 'X', register: () => undefined });
    expect(entry.configSchema.jsonSchema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {},
    });
    expect(() => readStringParam({}, 'q', { required: true })).toThrow(ToolInputError);
    expect(readStringParam({ q: '  hi ' }, 'q')).toBe('hi');
  });
});
