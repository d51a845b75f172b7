import type { Tool } from '../tool/tool.js';
import { type ConversionReport, LossLog } from './conversion-report.js';
import { flattenRootUnion } from './flatten-root-union.js';
import { normalizeJsonSchema } from './normalize-json-schema.js';
import { providerArgumentNames, renameArguments } from './provider-argument-names.js';
import { providerToolNames } from './provider-tool-names.js';

/** An Anthropic Messages API client tool (`@anthropic-ai/sdk` `Anthropic.Tool`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; properties?: unknown; required?: string[]; [keyword: string]: unknown };
}

/** Options of {@link toAnthropicTools}. */
export interface AnthropicToolsOptions {
  /** Receives one report per tool with what the conversion lost. */
  onReport?: (report: ConversionReport) => void;
}

/**
 * One tool's Anthropic `input_schema`: the JSON Schema as is (through `normalizeJsonSchema`),
 * except a top-level `oneOf`/`anyOf`/`allOf`, which Anthropic rejects ("input_schema does not
 * support oneOf, allOf, or anyOf at the top level") and which is merged into one object, and
 * top-level property keys outside `^[a-zA-Z0-9_.-]{1,64}$`, which are renamed (and logged).
 */
export function anthropicInputSchema(tool: Tool, log: LossLog): AnthropicTool['input_schema'] {
  const { $schema: _schema, ...schema } = normalizeJsonSchema(flattenRootUnion(tool.parameters, log));
  const renamed = providerArgumentNames(schema, 'anthropic');
  for (const [legal, original] of renamed)
    log.add(`argument "${original}" renamed to "${legal}"`, '/properties');
  const out = renameArguments(schema, renamed);
  return { ...out, type: 'object' } as AnthropicTool['input_schema'];
}

/**
 * Anthropic tool definitions for `tools` (`{ name, description, input_schema }`), with names
 * following `^[a-zA-Z0-9_-]{1,64}$`.
 *
 * @example
 * const message = await anthropic.messages.create({ model, max_tokens, messages, tools: toAnthropicTools(tools) });
 */
export function toAnthropicTools(
  tools: readonly Tool[],
  options: AnthropicToolsOptions = {},
): AnthropicTool[] {
  return [...providerToolNames(tools, 'anthropic')].map(([name, tool]) => {
    const log = new LossLog();
    const definition: AnthropicTool = { name, input_schema: anthropicInputSchema(tool, log) };
    if (tool.description !== '') definition.description = tool.description;
    options.onReport?.({ tool: tool.name, provider: 'anthropic', lost: log.lost });
    return definition;
  });
}
