import type { ToolResult } from '../tool/tool.js';
import { COMMON_IMAGE_TYPES, joinText, providerResultBlocks } from './provider-result-blocks.js';

/** A Gemini content part answering a function call (`@google/genai` `Part` with `functionResponse`). */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    response: Record<string, unknown>;
    parts?: Array<{ inlineData: { mimeType: string; data: string } }>;
  };
}

/** Options of {@link toGeminiToolResult}. */
export interface GeminiToolResultOptions {
  /** The id of the function call, when the model gave one. */
  id?: string;
  /** Send images as `functionResponse.parts` (multimodal function responses). Default `true`. */
  images?: boolean;
}

/**
 * A tool result as a Gemini `functionResponse` part. The response uses the keys Gemini names:
 * `output` (the `structuredContent` object when there is one, else the text) or `error` (the
 * text) when the tool failed. Images go into `parts` as inline data unless `images: false`;
 * MCP-only content is degraded to text.
 */
export function toGeminiToolResult(
  result: ToolResult,
  name: string,
  options: GeminiToolResultOptions = {},
): GeminiFunctionResponsePart {
  const withImages = options.images !== false;
  const blocks = providerResultBlocks(
    result,
    (mimeType) => withImages && COMMON_IMAGE_TYPES.includes(mimeType),
  );
  const text = joinText(blocks);
  const response: Record<string, unknown> = result.isError
    ? { error: text }
    : { output: result.structuredContent ?? text };
  const functionResponse: GeminiFunctionResponsePart['functionResponse'] = { name, response };
  if (options.id !== undefined) functionResponse.id = options.id;
  const parts = blocks.flatMap((block) =>
    block.type === 'image' ? [{ inlineData: { mimeType: block.mimeType, data: block.data } }] : [],
  );
  if (parts.length > 0) functionResponse.parts = parts;
  return { functionResponse };
}
