import type { ContentBlock, OpenClawContentBlock, TextContent } from './content.js';
import type { ToolResult } from './tool.js';
import { truncateChars } from './truncate.js';

/** Default cap on the text of one tool result. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** A result holding one text block. */
export function textResult(text: string, details?: unknown): ToolResult {
  return details === undefined
    ? { content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }], details };
}

/** An `isError` result holding one text block; tool failures are values, never throws. */
export function errorResult(message: string, details?: unknown): ToolResult {
  return { ...textResult(message, details), isError: true };
}

/** A result whose text is the JSON of `value` and whose `details` is `value` itself. */
export function jsonResult(value: unknown): ToolResult {
  return textResult(JSON.stringify(value, null, 2), value);
}

/** Size in bytes of a base64 payload, without decoding it. */
export function base64ByteLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** Human size: `512 B`, `24.0 KiB`, `3.1 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function degradeBlock(block: ContentBlock): OpenClawContentBlock {
  switch (block.type) {
    case 'text':
    case 'image':
      return block;
    case 'audio':
      return {
        type: 'text',
        text: `[Audio result: ${block.mimeType}, ${formatBytes(base64ByteLength(block.data))}]`,
      };
    case 'resource': {
      const { resource } = block;
      if (typeof resource.text === 'string') return { type: 'text', text: resource.text };
      return { type: 'text', text: `[Resource: ${resource.uri}]` };
    }
    case 'resource_link':
      return { type: 'text', text: `[Resource link: ${block.uri}${block.name ? ` (${block.name})` : ''}]` };
  }
}

/**
 * The degraded OpenClaw view of a lossless result: text and images stay,
 * audio becomes a line with its type and size, an embedded resource becomes its text or
 * its URI, a resource link becomes its URI.
 */
export function toOpenClawResult(result: ToolResult): ToolResult & { content: OpenClawContentBlock[] } {
  return { ...result, content: result.content.map(degradeBlock) };
}

/**
 * Caps the text of a result at `maxChars` in total. Text blocks past the cap are cut on a
 * character boundary and followed by a notice naming the original size; base64 payloads
 * (images, audio, blobs) are never cut.
 */
export function capResultText(result: ToolResult, maxChars = DEFAULT_MAX_RESULT_CHARS): ToolResult {
  const total = result.content.reduce(
    (sum, block) => sum + (block.type === 'text' ? block.text.length : 0),
    0,
  );
  if (total <= maxChars) return result;
  let budget = maxChars;
  const content: ContentBlock[] = [];
  for (const block of result.content) {
    if (block.type !== 'text') {
      content.push(block);
      continue;
    }
    const cut = truncateChars(block.text, budget);
    budget -= cut.shownSize;
    if (cut.shownSize > 0 || !cut.truncated) content.push({ ...block, text: cut.text });
  }
  const notice: TextContent = {
    type: 'text',
    text: `[Output truncated: showing ${maxChars} of ${total} characters]`,
  };
  content.push(notice);
  return { ...result, content };
}
