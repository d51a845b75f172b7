import type { ToolResult } from '../tool/tool.js';
import { COMMON_IMAGE_TYPES, joinText, providerResultBlocks } from './provider-result-blocks.js';

/** A JSON value, as the AI SDK's `JSONValue`. */
export type JsonValue = null | string | number | boolean | JsonValue[] | { [key: string]: JsonValue };

/** The AI SDK's `ToolResultOutput` variants mcptools produces. */
export type AISDKToolOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: JsonValue }
  | { type: 'error-text'; value: string }
  | {
      type: 'content';
      value: Array<{ type: 'text'; text: string } | { type: 'image-data'; data: string; mediaType: string }>;
    };

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolResult).content);
}

/**
 * A {@link ToolResult} as the AI SDK's tool output for the model (`toModelOutput`): `error-text`
 * when the tool failed, `content` with `image-data` parts when it returned images, `json` when
 * it returned only `structuredContent`, else `text`. MCP-only content is degraded to text.
 */
export function toAISDKToolOutput(result: unknown): AISDKToolOutput {
  if (!isToolResult(result))
    return { type: 'json', value: JSON.parse(JSON.stringify(result ?? null)) as JsonValue };
  if (!result.isError && result.content.length === 0 && result.structuredContent !== undefined) {
    return { type: 'json', value: JSON.parse(JSON.stringify(result.structuredContent)) as JsonValue };
  }
  const blocks = providerResultBlocks(
    result,
    (mimeType) => !result.isError && COMMON_IMAGE_TYPES.includes(mimeType),
  );
  if (result.isError) return { type: 'error-text', value: joinText(blocks) };
  if (!blocks.some((block) => block.type === 'image')) return { type: 'text', value: joinText(blocks) };
  return {
    type: 'content',
    value: blocks.map((block) =>
      block.type === 'text'
        ? { type: 'text' as const, text: block.text }
        : { type: 'image-data' as const, data: block.data, mediaType: block.mimeType },
    ),
  };
}
