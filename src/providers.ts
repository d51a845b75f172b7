/** `mcptools/providers`: tool definitions and results in the shapes of OpenAI, Anthropic, Gemini and the AI SDK. */
export type { AISDKToolOutput, JsonValue } from './providers/ai-sdk-tool-output.js';
export { toAISDKToolOutput } from './providers/ai-sdk-tool-output.js';
export type { AISDKJsonSchema, AISDKTool, AISDKToolsOptions } from './providers/ai-sdk-tools.js';
export { toAISDKTools } from './providers/ai-sdk-tools.js';
export type { AnthropicToolResult, AnthropicToolResultBlock } from './providers/anthropic-tool-result.js';
export { toAnthropicToolResult } from './providers/anthropic-tool-result.js';
export type { AnthropicTool, AnthropicToolsOptions } from './providers/anthropic-tools.js';
export { toAnthropicTools } from './providers/anthropic-tools.js';
export type { ConversionReport, ProviderName } from './providers/conversion-report.js';
export type { GeminiSchema, GeminiType } from './providers/gemini-schema.js';
export { toGeminiParameters } from './providers/gemini-schema.js';
export type { GeminiFunctionResponsePart, GeminiToolResultOptions } from './providers/gemini-tool-result.js';
export { toGeminiToolResult } from './providers/gemini-tool-result.js';
export type { GeminiFunctionDeclaration, GeminiTool, GeminiToolsOptions } from './providers/gemini-tools.js';
export { toGeminiTools } from './providers/gemini-tools.js';
export type { OpenAIStrictResult } from './providers/openai-strict-schema.js';
export type {
  OpenAIChatToolMessage,
  OpenAIFunctionCallOutput,
  OpenAIFunctionOutputPart,
} from './providers/openai-tool-result.js';
export { toOpenAIToolResult } from './providers/openai-tool-result.js';
export type { OpenAIChatTool, OpenAIResponsesTool, OpenAIToolsOptions } from './providers/openai-tools.js';
export { toOpenAITools } from './providers/openai-tools.js';
export type {
  ProviderToolCaller,
  ProviderToolCallerOptions,
  ResolvedToolCall,
} from './providers/provider-tool-caller.js';
export { createProviderToolCaller } from './providers/provider-tool-caller.js';
export {
  GEMINI_NAME_PATTERN,
  PROVIDER_NAME_PATTERNS,
  providerToolNames,
} from './providers/provider-tool-names.js';
export { stripStrictNulls } from './providers/strip-strict-nulls.js';
export { toolConversionReports } from './providers/tool-conversion-reports.js';
export { validateAnthropicTool } from './providers/validate/validate-anthropic-tool.js';
export { validateGeminiDeclaration } from './providers/validate/validate-gemini-declaration.js';
export { validateOpenAITool } from './providers/validate/validate-openai-tool.js';
export { legalizeName, type NamingOptions, TOOL_NAME_PATTERN } from './registry/tool-name.js';
