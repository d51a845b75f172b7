import type { ImageContent, TextContent } from '../tool/content.js';
import { base64ByteLength, formatBytes, toOpenClawResult } from '../tool/result.js';
import type { ToolResult } from '../tool/tool.js';

/** Image types every provider here takes inline (OpenAI, Anthropic, Gemini vision inputs). */
export const COMMON_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * The blocks of `result` a provider can carry: MCP-only content degraded to text as for OpenClaw
 * §7.5 (`toOpenClawResult`), images the provider cannot take described in a line of text, and
 * `structuredContent` as JSON text when the result has no text of its own (a server SHOULD
 * also send it as text, MCP 2025-06-18 "Structured Content"). Empty text blocks are dropped.
 */
export function providerResultBlocks(
  result: ToolResult,
  acceptsImage: (mimeType: string) => boolean,
): Array<TextContent | ImageContent> {
  const blocks: Array<TextContent | ImageContent> = [];
  for (const block of toOpenClawResult(result).content) {
    if (block.type === 'text') {
      if (block.text !== '') blocks.push({ type: 'text', text: block.text });
    } else if (acceptsImage(block.mimeType)) {
      blocks.push({ type: 'image', data: block.data, mimeType: block.mimeType });
    } else {
      blocks.push({
        type: 'text',
        text: `[Image result: ${block.mimeType}, ${formatBytes(base64ByteLength(block.data))}]`,
      });
    }
  }
  if (result.structuredContent !== undefined && !blocks.some((block) => block.type === 'text')) {
    blocks.unshift({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  return blocks;
}

/** All text of `blocks` joined by newlines (images are skipped). */
export function joinText(blocks: ReadonlyArray<TextContent | ImageContent>): string {
  return blocks
    .filter((block): block is TextContent => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
