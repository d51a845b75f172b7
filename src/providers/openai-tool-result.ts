import type { ToolResult } from '../tool/tool.js';
import { COMMON_IMAGE_TYPES, joinText, providerResultBlocks } from './provider-result-blocks.js';

/** A Chat Completions tool message (`openai` `ChatCompletionToolMessageParam`). */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** One part of a Responses `function_call_output` (`input_text` or `input_image`). */
export type OpenAIFunctionOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' };

/** A Responses API input item answering a function call (`ResponseInputItem.FunctionCallOutput`). */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIFunctionOutputPart[];
}

/** Chat tool messages hold text only; OpenAI has no error flag, so failures are labelled in the text. */
function errorLabel(result: ToolResult, text: string): string {
  return result.isError ? `Error: ${text}` : text;
}

/**
 * A tool result as OpenAI takes it back. Chat Completions (the default): a `role: 'tool'`
 * message whose content is text only — images and MCP-only content become a line of text.
 * Responses (`{ api: 'responses' }`): a `function_call_output` item whose output holds text and
 * PNG/JPEG/GIF/WebP images as data URLs. `isError` becomes an `Error: ` prefix.
 */
export function toOpenAIToolResult(
  result: ToolResult,
  toolCallId: string,
  options: { api: 'responses' },
): OpenAIFunctionCallOutput;
export function toOpenAIToolResult(
  result: ToolResult,
  toolCallId: string,
  options?: { api?: 'chat' },
): OpenAIChatToolMessage;
export function toOpenAIToolResult(
  result: ToolResult,
  toolCallId: string,
  options: { api?: 'chat' | 'responses' } = {},
): OpenAIChatToolMessage | OpenAIFunctionCallOutput {
  if (options.api === 'responses') {
    const blocks = providerResultBlocks(result, (mimeType) => COMMON_IMAGE_TYPES.includes(mimeType));
    if (!blocks.some((block) => block.type === 'image')) {
      return {
        type: 'function_call_output',
        call_id: toolCallId,
        output: errorLabel(result, joinText(blocks)),
      };
    }
    const output = blocks.map(
      (block): OpenAIFunctionOutputPart =>
        block.type === 'text'
          ? { type: 'input_text', text: block.text }
          : { type: 'input_image', image_url: `data:${block.mimeType};base64,${block.data}`, detail: 'auto' },
    );
    if (result.isError) output.unshift({ type: 'input_text', text: 'Error:' });
    return { type: 'function_call_output', call_id: toolCallId, output };
  }
  const text = joinText(providerResultBlocks(result, () => false));
  return {
    role: 'tool',
    tool_call_id: toolCallId,
    content: errorLabel(result, text === '' ? '(no output)' : text),
  };
}
