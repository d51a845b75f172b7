import { beforeAll, describe, expect, it } from 'vitest';
import { toAISDKTools } from '../../src/providers/ai-sdk-tools.js';
import { toAnthropicTools } from '../../src/providers/anthropic-tools.js';
import type { GeminiSchema } from '../../src/providers/gemini-schema.js';
import { toGeminiTools } from '../../src/providers/gemini-tools.js';
import { toOpenAITools } from '../../src/providers/openai-tools.js';
import { PROVIDER_NAME_PATTERNS, providerToolNames } from '../../src/providers/provider-tool-names.js';
import { isSchemaRecord, type SchemaRecord } from '../../src/providers/schema-record.js';
import { toolConversionReports } from '../../src/providers/tool-conversion-reports.js';
import { validateAnthropicTool } from '../../src/providers/validate/validate-anthropic-tool.js';
import { validateGeminiDeclaration } from '../../src/providers/validate/validate-gemini-declaration.js';
import { validateOpenAITool } from '../../src/providers/validate/validate-openai-tool.js';
import type { Tool } from '../../src/tool/tool.js';
import { loadCorpusTools } from './corpus.js';

let tools: Tool[] = [];

beforeAll(() => {
  tools = loadCorpusTools();
});

/** Follows a local `$ref` one or more times, so original schemas compare with inlined ones. */
function deref(node: unknown, root: SchemaRecord): unknown {
  let current = node;
  for (let hops = 0; hops < 8 && isSchemaRecord(current) && typeof current.$ref === 'string'; hops++) {
    const path = current.$ref.replace(/^#\/?/, '').split('/').filter(Boolean);
    current = path.reduce<unknown>((value, key) => (isSchemaRecord(value) ? value[key] : undefined), root);
  }
  return current;
}

/**
 * Every `required` name of every object reached through `properties` in `original` must be a
 * property and required at the same place in `converted` (nested objects included).
 */
function missingRequired(
  original: unknown,
  converted: unknown,
  root: SchemaRecord,
  path = '',
  depth = 0,
): string[] {
  const source = deref(original, root);
  if (!isSchemaRecord(source) || !isSchemaRecord(converted) || depth > 12) return [];
  const missing: string[] = [];
  const required = Array.isArray(source.required) ? source.required.map(String) : [];
  const properties = isSchemaRecord(converted.properties) ? converted.properties : {};
  const convertedRequired = Array.isArray(converted.required) ? converted.required.map(String) : [];
  for (const name of required) {
    if (!(name in properties) || !convertedRequired.includes(name)) missing.push(`${path}/${name}`);
  }
  if (isSchemaRecord(source.properties)) {
    for (const [name, child] of Object.entries(source.properties)) {
      missing.push(...missingRequired(child, properties[name], root, `${path}/${name}`, depth + 1));
    }
  }
  return missing;
}

describe('the 979-tool corpus converts for every provider', () => {
  it('holds the 979 tools of toolcorpus and livemcpbench', () => {
    expect(tools).toHaveLength(979);
  });

  it('OpenAI Chat Completions: valid, legal names, required parameters kept (non-strict and strict)', () => {
    for (const strict of [false, true]) {
      const converted = toOpenAITools(tools, { strict });
      expect(converted).toHaveLength(979);
      const names = new Set<string>();
      converted.forEach((definition, index) => {
        const tool = tools[index] as Tool;
        expect(validateOpenAITool(definition), `${tool.name} strict=${strict}`).toEqual([]);
        expect(definition.function.name).toMatch(PROVIDER_NAME_PATTERNS.openai);
        names.add(definition.function.name);
        expect(
          missingRequired(tool.parameters, definition.function.parameters, tool.parameters),
          tool.name,
        ).toEqual([]);
      });
      expect(names.size).toBe(979);
    }
  });

  it('OpenAI Responses: valid and strict where possible', () => {
    const converted = toOpenAITools(tools, { api: 'responses', strict: true });
    for (const definition of converted) expect(validateOpenAITool(definition), definition.name).toEqual([]);
    const strictCount = converted.filter((definition) => definition.strict).length;
    expect(strictCount).toBeGreaterThan(900);
  });

  it('OpenAI strict: every fallback to non-strict says why', () => {
    const reports = toolConversionReports(tools, 'openai', { strict: true });
    const fallbacks = reports.filter((report) => report.strict === false);
    expect(fallbacks.length).toBeGreaterThan(0);
    for (const report of fallbacks) expect(report.strictFallbackReason).toMatch(/\S/);
  });

  it('Anthropic: valid, legal names, required parameters kept', () => {
    const converted = toAnthropicTools(tools);
    converted.forEach((definition, index) => {
      const tool = tools[index] as Tool;
      expect(validateAnthropicTool(definition), tool.name).toEqual([]);
      expect(definition.name).toMatch(PROVIDER_NAME_PATTERNS.anthropic);
      expect(missingRequired(tool.parameters, definition.input_schema, tool.parameters), tool.name).toEqual(
        [],
      );
    });
  });

  it('Gemini: valid OpenAPI subset, legal names, required parameters kept', () => {
    const [geminiTool] = toGeminiTools(tools);
    const declarations = geminiTool?.functionDeclarations ?? [];
    expect(declarations).toHaveLength(979);
    declarations.forEach((declaration, index) => {
      const tool = tools[index] as Tool;
      expect(validateGeminiDeclaration(declaration), tool.name).toEqual([]);
      expect(declaration.name).toMatch(PROVIDER_NAME_PATTERNS.gemini);
      expect(JSON.stringify(declaration)).not.toContain('"$ref"');
      const parameters: GeminiSchema | undefined = declaration.parameters;
      if (parameters === undefined) {
        // Only tools without any parameter lose the parameters field.
        expect(Object.keys(tool.parameters.properties ?? {})).toEqual([]);
        expect(tool.parameters.required ?? []).toEqual([]);
      } else {
        expect(missingRequired(tool.parameters, parameters, tool.parameters), tool.name).toEqual([]);
      }
    });
  });

  it('AI SDK: one tool per name, legal names, the original schema', () => {
    const converted = toAISDKTools(tools);
    const names = Object.keys(converted);
    expect(names).toHaveLength(979);
    for (const name of names) expect(name).toMatch(PROVIDER_NAME_PATTERNS['ai-sdk']);
    const byName = providerToolNames(tools, 'ai-sdk');
    for (const [name, definition] of Object.entries(converted)) {
      expect(definition.inputSchema.jsonSchema).toBe(byName.get(name)?.parameters);
    }
  });

  it('reports name each construct that lost information', () => {
    const reports = toolConversionReports(tools, 'gemini');
    const lost = reports.flatMap((report) => report.lost);
    expect(lost.some((entry) => entry.startsWith('oneOf → anyOf'))).toBe(true);
    expect(lost.some((entry) => entry.startsWith('recursive $ref'))).toBe(true);
    expect(lost.every((entry) => / at \//.test(entry))).toBe(true);
    expect(toolConversionReports(tools, 'anthropic').every((report) => report.lost.length === 0)).toBe(true);
  });
});
