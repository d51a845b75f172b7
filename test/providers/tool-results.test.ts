import { describe, expect, it } from 'vitest';
import { toAISDKToolOutput } from '../../src/providers/ai-sdk-tool-output.js';
import { toAnthropicToolResult } from '../../src/providers/anthropic-tool-result.js';
import { toGeminiToolResult } from '../../src/providers/gemini-tool-result.js';
import { toOpenAIToolResult } from '../../src/providers/openai-tool-result.js';
import type { ToolResult } from '../../src/tool/tool.js';

const PNG = 'iVBORw0KGgo=';
const mixed: ToolResult = {
  content: [
    { type: 'text', text: 'hello' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { type: 'image', data: 'AAAA', mimeType: 'image/tiff' },
    { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    { type: 'resource', resource: { uri: 'file:///a.txt', text: 'file body' } },
    { type: 'resource_link', uri: 'file:///b.txt', name: 'b' },
    { type: 'text', text: '' },
  ],
};
const failed: ToolResult = { content: [{ type: 'text', text: 'Tool x failed: nope' }], isError: true };
const structured: ToolResult = { content: [], structuredContent: { temperature: 21 } };

describe('tool results for each provider', () => {
  it('OpenAI chat: text only, images and MCP content described, errors labelled', () => {
    const message = toOpenAIToolResult(mixed, 'call_1');
    expect(message.role).toBe('tool');
    expect(message.tool_call_id).toBe('call_1');
    expect(message.content.split('\n')).toEqual([
      'hello',
      '[Image result: image/png, 8 B]',
      '[Image result: image/tiff, 3 B]',
      '[Audio result: audio/wav, 3 B]',
      'file body',
      '[Resource link: file:///b.txt (b)]',
    ]);
    expect(toOpenAIToolResult(failed, 'c').content).toBe('Error: Tool x failed: nope');
    expect(toOpenAIToolResult(structured, 'c').content).toBe('{"temperature":21}');
    expect(toOpenAIToolResult({ content: [] }, 'c').content).toBe('(no output)');
  });

  it('OpenAI responses: images as data URLs, other content as text', () => {
    const item = toOpenAIToolResult(mixed, 'call_1', { api: 'responses' });
    expect(item.type).toBe('function_call_output');
    expect(item.call_id).toBe('call_1');
    expect(item.output).toContainEqual({
      type: 'input_image',
      image_url: `data:image/png;base64,${PNG}`,
      detail: 'auto',
    });
    expect(item.output).toContainEqual({ type: 'input_text', text: '[Image result: image/tiff, 3 B]' });
    expect(toOpenAIToolResult(failed, 'c', { api: 'responses' }).output).toBe('Error: Tool x failed: nope');
  });

  it('Anthropic: text and image blocks, is_error, no empty text blocks', () => {
    const block = toAnthropicToolResult(mixed, 'toolu_1');
    expect(block.type).toBe('tool_result');
    expect(block.tool_use_id).toBe('toolu_1');
    expect(block.content?.[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG },
    });
    expect(block.content?.some((part) => part.type === 'text' && part.text === '')).toBe(false);
    expect(block.is_error).toBeUndefined();
    expect(toAnthropicToolResult(failed, 't')).toEqual({
      type: 'tool_result',
      tool_use_id: 't',
      content: [{ type: 'text', text: 'Tool x failed: nope' }],
      is_error: true,
    });
  });

  it('Gemini: output or error key, structured content as the output object, images as parts', () => {
    const part = toGeminiToolResult(mixed, 'fn', { id: 'call-9' });
    expect(part.functionResponse.name).toBe('fn');
    expect(part.functionResponse.id).toBe('call-9');
    expect(part.functionResponse.response.output).toContain('hello');
    expect(part.functionResponse.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG } }]);
    expect(toGeminiToolResult(mixed, 'fn', { images: false }).functionResponse.parts).toBeUndefined();
    expect(toGeminiToolResult(failed, 'fn').functionResponse.response).toEqual({
      error: 'Tool x failed: nope',
    });
    expect(toGeminiToolResult(structured, 'fn').functionResponse.response).toEqual({
      output: { temperature: 21 },
    });
  });

  it('AI SDK: text, content with image-data, json and error-text outputs', () => {
    expect(toAISDKToolOutput({ content: [{ type: 'text', text: 'hi' }] })).toEqual({
      type: 'text',
      value: 'hi',
    });
    expect(toAISDKToolOutput(failed)).toEqual({ type: 'error-text', value: 'Tool x failed: nope' });
    expect(toAISDKToolOutput(structured)).toEqual({ type: 'json', value: { temperature: 21 } });
    const content = toAISDKToolOutput(mixed);
    expect(content.type).toBe('content');
    if (content.type === 'content') {
      expect(content.value).toContainEqual({ type: 'image-data', data: PNG, mediaType: 'image/png' });
    }
  });
});
