import type { Tool, ToolResult } from '../tool/tool.js';
import { type AISDKToolOutput, toAISDKToolOutput } from './ai-sdk-tool-output.js';
import type { ConversionReport } from './conversion-report.js';
import { runToolSafely } from './provider-tool-caller.js';
import { providerToolNames } from './provider-tool-names.js';
import type { SchemaRecord } from './schema-record.js';

/**
 * The marker the AI SDK puts on its schemas: `Symbol.for("vercel.ai.schema")` in
 * `@ai-sdk/provider-utils` `jsonSchema()`, checked by its `asSchema()`. A registered symbol, so
 * the same marker works without importing `ai`.
 */
const AI_SDK_SCHEMA_MARKER = Symbol.for('vercel.ai.schema');

/** A schema object the AI SDK accepts as `inputSchema` (what its `jsonSchema()` returns). */
export interface AISDKJsonSchema {
  readonly jsonSchema: SchemaRecord;
  readonly validate: undefined;
  readonly _type: undefined;
}

/** An AI SDK tool (`ai` `Tool`, `type: 'dynamic'`) whose `execute` runs one {@link Tool}. */
export interface AISDKTool<TSchema = AISDKJsonSchema> {
  type: 'dynamic';
  description?: string;
  inputSchema: TSchema;
  execute(input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }): Promise<ToolResult>;
  toModelOutput(options: { toolCallId: string; input: unknown; output: unknown }): AISDKToolOutput;
}

/** Options of {@link toAISDKTools}. */
export interface AISDKToolsOptions<TSchema> {
  /**
   * The AI SDK's own `jsonSchema` helper (`import { jsonSchema } from 'ai'`). Pass it for exact
   * `ToolSet` typing; without it an equivalent schema object is built.
   */
  jsonSchema?: (schema: SchemaRecord) => TSchema;
  /** Receives one report per tool (the AI SDK's provider packages convert schemas themselves). */
  onReport?: (report: ConversionReport) => void;
}

function markedJsonSchema(schema: SchemaRecord): AISDKJsonSchema {
  return {
    [AI_SDK_SCHEMA_MARKER]: true,
    jsonSchema: schema,
    validate: undefined,
    _type: undefined,
  } as AISDKJsonSchema;
}

/**
 * A record of AI SDK tools, keyed by a name every provider accepts, for `generateText` /
 * `streamText`. Each `execute(input, { toolCallId, abortSignal })` runs
 * `tool.execute(toolCallId, input, abortSignal)` and returns the {@link ToolResult}; its
 * `toModelOutput` turns that into text, images, JSON or error text for the model
 * ({@link toAISDKToolOutput}). Tool failures stay results, never throws.
 *
 * @example
 * const result = await generateText({ model, tools: toAISDKTools(tools, { jsonSchema }), stopWhen: stepCountIs(5), prompt });
 */
export function toAISDKTools(
  tools: readonly Tool[],
  options?: AISDKToolsOptions<AISDKJsonSchema>,
): Record<string, AISDKTool<AISDKJsonSchema>>;
export function toAISDKTools<TSchema>(
  tools: readonly Tool[],
  options: AISDKToolsOptions<TSchema> & { jsonSchema: (schema: SchemaRecord) => TSchema },
): Record<string, AISDKTool<TSchema>>;
export function toAISDKTools(
  tools: readonly Tool[],
  options: AISDKToolsOptions<unknown> = {},
): Record<string, AISDKTool<unknown>> {
  const makeSchema = options.jsonSchema ?? markedJsonSchema;
  const out: Record<string, AISDKTool<unknown>> = {};
  for (const [name, tool] of providerToolNames(tools, 'ai-sdk')) {
    options.onReport?.({ tool: tool.name, provider: 'ai-sdk', lost: [] });
    const definition: AISDKTool<unknown> = {
      type: 'dynamic',
      inputSchema: makeSchema(tool.parameters),
      execute: (input, { toolCallId, abortSignal }) =>
        runToolSafely(
          tool,
          toolCallId,
          typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {},
          abortSignal,
        ),
      toModelOutput: ({ output }) => toAISDKToolOutput(output),
    };
    if (tool.description !== '') definition.description = tool.description;
    out[name] = definition;
  }
  return out;
}
