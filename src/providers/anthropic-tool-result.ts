import type { ToolResult } from '../tool/tool.js';
import { COMMON_IMAGE_TYPES, providerResultBlocks } from './provider-result-blocks.js';

/** Image media types the Messages API takes in a base64 image block. */
type AnthropicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** A block of an Anthropic `tool_result` content list. */
export type AnthropicToolResultBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } };

/** An Anthropic `tool_result` content block (`@anthropic-ai/sdk` `ToolResultBlockParam`). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content?: AnthropicToolResultBlock[];
  is_error?: boolean;
}

/**
 * A tool result as an Anthropic `tool_result` block for the next user message: text blocks,
 * JPEG/PNG/GIF/WebP images as base64 image blocks, MCP-only content degraded to text, and
 * `is_error` when the tool failed. Empty text blocks are left out (the API rejects them).
 */
export function toAnthropicToolResult(result: ToolResult, toolUseId: string): AnthropicToolResult {
  const content = providerResultBlocks(result, (mimeType) => COMMON_IMAGE_TYPES.includes(mimeType)).map(
    (block): AnthropicToolResultBlock =>
      block.type === 'text'
        ? { type: 'text', text: block.text }
        : {
            type: 'image',
            source: { type: 'base64', media_type: block.mimeType as AnthropicImageType, data: block.data },
          },
  );
  const out: AnthropicToolResult = { type: 'tool_result', tool_use_id: toolUseId };
  if (content.length > 0) out.content = content;
  if (result.isError) out.is_error = true;
  return out;
}
