export type { AISDKToolOutput, JsonValue } from './ai-sdk-tool-output.js';
export { toAISDKToolOutput } from './ai-sdk-tool-output.js';
export type { AISDKJsonSchema, AISDKTool, AISDKToolsOptions } from './ai-sdk-tools.js';
export { toAISDKTools } from './ai-sdk-tools.js';
export type { AnthropicToolResult, AnthropicToolResultBlock } from './anthropic-tool-result.js';
export { toAnthropicToolResult } from './anthropic-tool-result.js';
export type { AnthropicTool, AnthropicToolsOptions } from './anthropic-tools.js';
export { toAnthropicTools } from './anthropic-tools.js';
export type { ConversionReport, ProviderName } from './conversion-report.js';
export type { GeminiSchema, GeminiType } from './gemini-schema.js';
export { toGeminiParameters } from './gemini-schema.js';
export type { GeminiFunctionResponsePart, GeminiToolResultOptions } from './gemini-tool-result.js';
export { toGeminiToolResult } from './gemini-tool-result.js';
export type { GeminiFunctionDeclaration, GeminiTool, GeminiToolsOptions } from './gemini-tools.js';
export { toGeminiTools } from './gemini-tools.js';
export type { OpenAIStrictResult } from './openai-strict-schema.js';
export type {
  OpenAIChatToolMessage,
  OpenAIFunctionCallOutput,
  OpenAIFunctionOutputPart,
} from './openai-tool-result.js';
export { toOpenAIToolResult } from './openai-tool-result.js';
export type { OpenAIChatTool, OpenAIResponsesTool, OpenAIToolsOptions } from './openai-tools.js';
export { toOpenAITools } from './openai-tools.js';
export type {
  ProviderToolCaller,
  ProviderToolCallerOptions,
  ResolvedToolCall,
} from './provider-tool-caller.js';
export { createProviderToolCaller } from './provider-tool-caller.js';
export { GEMINI_NAME_PATTERN, PROVIDER_NAME_PATTERNS, providerToolNames } from './provider-tool-names.js';
export { stripStrictNulls } from './strip-strict-nulls.js';
export { toolConversionReports } from './tool-conversion-reports.js';
export { validateAnthropicTool } from './validate/validate-anthropic-tool.js';
export { validateGeminiDeclaration } from './validate/validate-gemini-declaration.js';
export { validateOpenAITool } from './validate/validate-openai-tool.js';
