import type { Tool } from '../tool/tool.js';
import { type ConversionReport, LossLog } from './conversion-report.js';
import { toOpenAIParameters } from './openai-parameters.js';
import { toOpenAIStrictSchema } from './openai-strict-schema.js';
import { providerToolNames } from './provider-tool-names.js';
import type { SchemaRecord } from './schema-record.js';

/** Options of {@link toOpenAITools}. */
export interface OpenAIToolsOptions {
  /** `chat` (Chat Completions, the default) or `responses` (Responses API). */
  api?: 'chat' | 'responses';
  /** Ask for strict mode (Structured Outputs); tools whose schema has no strict form fall back. */
  strict?: boolean;
  /** Receives one report per tool: what the conversion lost and whether strict mode held. */
  onReport?: (report: ConversionReport) => void;
}

/** A Chat Completions function tool (`openai` `ChatCompletionFunctionTool`). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: SchemaRecord; strict?: boolean };
}

/** A Responses API function tool (`openai` `Responses.FunctionTool`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string | null;
  parameters: SchemaRecord;
  strict: boolean;
}

/** One tool's OpenAI parameters: strict when asked and possible, with what it lost. */
export function openAIToolSchema(
  tool: Tool,
  strict: boolean,
): { parameters: SchemaRecord; strict: boolean; report: Omit<ConversionReport, 'tool'> } {
  if (strict) {
    const log = new LossLog();
    const result = toOpenAIStrictSchema(tool.parameters, log);
    if ('schema' in result) {
      return {
        parameters: result.schema,
        strict: true,
        report: { provider: 'openai', lost: log.lost, strict: true },
      };
    }
    return {
      parameters: toOpenAIParameters(tool.parameters),
      strict: false,
      report: {
        provider: 'openai',
        lost: [`strict mode not possible (${result.fallback}); sent non-strict`],
        strict: false,
        strictFallbackReason: result.fallback,
      },
    };
  }
  return {
    parameters: toOpenAIParameters(tool.parameters),
    strict: false,
    report: { provider: 'openai', lost: [] },
  };
}

/**
 * OpenAI function tools for `tools`, in the Chat Completions shape (`{ type, function: {...} }`)
 * or, with `api: 'responses'`, the Responses shape (`{ type, name, parameters, strict }`).
 * Names follow OpenAI's `^[a-zA-Z0-9_-]{1,64}$`. With `strict: true` each schema is rewritten for
 * Structured Outputs; one that cannot be is sent non-strict and its report says why.
 *
 * @example
 * const response = await openai.chat.completions.create({ model, messages, tools: toOpenAITools(registry.list()) });
 */
export function toOpenAITools(
  tools: readonly Tool[],
  options: OpenAIToolsOptions & { api: 'responses' },
): OpenAIResponsesTool[];
export function toOpenAITools(
  tools: readonly Tool[],
  options?: OpenAIToolsOptions & { api?: 'chat' },
): OpenAIChatTool[];
export function toOpenAITools(
  tools: readonly Tool[],
  options: OpenAIToolsOptions = {},
): OpenAIChatTool[] | OpenAIResponsesTool[] {
  const names = [...providerToolNames(tools, 'openai')];
  const converted = names.map(([name, tool]) => {
    const schema = openAIToolSchema(tool, options.strict === true);
    options.onReport?.({ tool: tool.name, ...schema.report });
    return { name, tool, schema };
  });
  if (options.api === 'responses') {
    return converted.map(({ name, tool, schema }) => ({
      type: 'function' as const,
      name,
      description: tool.description === '' ? null : tool.description,
      parameters: schema.parameters,
      strict: schema.strict,
    }));
  }
  return converted.map(({ name, tool, schema }) => {
    const definition: OpenAIChatTool['function'] = { name, parameters: schema.parameters };
    if (tool.description !== '') definition.description = tool.description;
    if (options.strict !== undefined) definition.strict = schema.strict;
    return { type: 'function' as const, function: definition };
  });
}
