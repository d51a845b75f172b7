import type Anthropic from '@anthropic-ai/sdk';
import {
  type FunctionDeclaration,
  type Tool as GeminiSdkTool,
  type Part,
  type Schema,
  Type,
} from '@google/genai';
import { type Tool as AISDKSdkTool, asSchema, jsonSchema, type ToolSet } from 'ai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { toAISDKToolOutput } from '../../src/providers/ai-sdk-tool-output.js';
import { toAISDKTools } from '../../src/providers/ai-sdk-tools.js';
import { toAnthropicToolResult } from '../../src/providers/anthropic-tool-result.js';
import { toAnthropicTools } from '../../src/providers/anthropic-tools.js';
import type { GeminiSchema } from '../../src/providers/gemini-schema.js';
import { toGeminiToolResult } from '../../src/providers/gemini-tool-result.js';
import { toGeminiTools } from '../../src/providers/gemini-tools.js';
import { toOpenAIToolResult } from '../../src/providers/openai-tool-result.js';
import { toOpenAITools } from '../../src/providers/openai-tools.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { loadCorpusTools } from './corpus.js';

/**
 * `@google/genai` types `Schema.type` as its string enum `Type`, whose wire values are the
 * upper-case names; a plain object literal can only match it through the enum's values.
 */
type WireSchema = Omit<Schema, 'type' | 'items' | 'properties' | 'anyOf'> & {
  type?: `${Type}`;
  items?: WireSchema;
  properties?: Record<string, WireSchema>;
  anyOf?: WireSchema[];
};
type WireDeclaration = Omit<FunctionDeclaration, 'parameters'> & { parameters?: WireSchema };
type WireGeminiTool = Omit<GeminiSdkTool, 'functionDeclarations'> & {
  functionDeclarations?: WireDeclaration[];
};
/** No field of ours is unknown to the SDK's `Schema`. */
type ExtraGeminiFields = Exclude<keyof GeminiSchema, keyof Schema>;
const noExtraGeminiFields: [ExtraGeminiFields] extends [never] ? true : false = true;
type AISDKToolResultOutput = Awaited<ReturnType<NonNullable<AISDKSdkTool['toModelOutput']>>>;

const result: ToolResult = {
  content: [
    { type: 'text', text: 'done' },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  ],
};

describe('adapter outputs type-check against the provider SDKs', () => {
  const tools = loadCorpusTools();

  it('OpenAI: ChatCompletionTool[], Responses FunctionTool[], tool message and function_call_output', () => {
    const chat: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAITools(tools, { strict: true });
    const responses: OpenAI.Responses.FunctionTool[] = toOpenAITools(tools, {
      api: 'responses',
      strict: true,
    });
    const message: OpenAI.Chat.Completions.ChatCompletionMessageParam = toOpenAIToolResult(result, 'call_1');
    const item: OpenAI.Responses.ResponseInputItem = toOpenAIToolResult(result, 'call_1', {
      api: 'responses',
    });
    expect(chat).toHaveLength(979);
    expect(responses).toHaveLength(979);
    expect(message.role).toBe('tool');
    expect(item.type).toBe('function_call_output');
  });

  it('Anthropic: Tool[] and ToolResultBlockParam', () => {
    const definitions: Anthropic.Tool[] = toAnthropicTools(tools);
    const block: Anthropic.ToolResultBlockParam = toAnthropicToolResult(result, 'toolu_1');
    const user: Anthropic.MessageParam = { role: 'user', content: [block] };
    expect(definitions).toHaveLength(979);
    expect(user.content).toHaveLength(1);
  });

  it('Gemini: Tool[] with FunctionDeclaration[] (Type enum as wire values) and a functionResponse Part', () => {
    const geminiTools: WireGeminiTool[] = toGeminiTools(tools);
    const part: Part = toGeminiToolResult(result, 'fn');
    expect(noExtraGeminiFields).toBe(true);
    expect(geminiTools[0]?.functionDeclarations).toHaveLength(979);
    for (const value of ['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']) {
      expect(Object.values(Type)).toContain(value);
    }
    expect(part.functionResponse?.name).toBe('fn');
  });

  it('AI SDK: a ToolSet (with the SDK jsonSchema), and a marked schema asSchema accepts without it', () => {
    const set: ToolSet = toAISDKTools(tools, { jsonSchema });
    const output: AISDKToolResultOutput = toAISDKToolOutput(result);
    expect(Object.keys(set)).toHaveLength(979);
    expect(output.type).toBe('content');
    const plain = toAISDKTools(tools.slice(0, 1));
    const [definition] = Object.values(plain);
    // asSchema returns the same object only when it recognises the AI SDK schema marker.
    expect(asSchema(definition?.inputSchema as never)).toBe(definition?.inputSchema);
    expect(asSchema(definition?.inputSchema as never).jsonSchema).toBe(tools[0]?.parameters);
  });
});
