/**
 * mcptools: every tool an agent can use behind one interface — MCP servers of any
 * transport and protocol era, native OpenClaw-style tools and plugins, router meta-tools,
 * and tool definitions every major LLM provider accepts.
 */

// OAuth for remote servers
export { authCommand } from './auth/auth-required-error.js';
export { defaultVaultPath } from './auth/default-vault-path.js';
export { FileTokenStore } from './auth/file-token-store.js';
export { MemoryTokenStore } from './auth/memory-token-store.js';
export type { AuthorizationStart, AuthorizationUrlHandler } from './auth/server-authorization.js';
export type { OAuthHostOptions } from './auth/server-authorizations.js';
export type { TokenStore, VaultEntry, VaultUpdate } from './auth/token-store.js';
export { type ConfigSearchOptions, configSearchPaths } from './config/config-search-paths.js';
// Configuration
export type {
  ConfigFormat,
  GatewayConfig,
  GatewayMode,
  GatewayProfileConfig,
  HttpAuth,
  HttpServerConfig,
  McpToolsConfig,
  OAuthConfig,
  ProtocolMode,
  SemanticSearchConfig,
  ServerConfig,
  StdioServerConfig,
  TokenExchangeConfig,
} from './config/config-types.js';
export { findConfigFile } from './config/find-config-file.js';
export type { GatewayLimitsConfig } from './config/gateway-limits-types.js';
export { type LoadConfigOptions, loadConfig } from './config/load-config.js';
export { type ParseConfigOptions, parseConfig } from './config/parse-config.js';
export type {
  AuditLogConfig,
  PoliciesConfig,
  PolicyMatch,
  PolicyRule,
  RateLimitConfig,
  ToolOverrideConfig,
} from './config/policies-schema.js';
export { redactConfig, redactServer } from './config/redact-config.js';
// The registry
export { compileToolFilter, type ToolFilter } from './config/tool-filter.js';
// Errors
export {
  McpToolsError,
  type McpToolsErrorCode,
  type McpToolsErrorOptions,
} from './errors/mcp-tools-error.js';
// Gateway
export type { Gateway, ListenOptions } from './gateway/create-gateway.js';
export { DEFAULT_MAX_BODY_BYTES, type GatewayOptions } from './gateway/gateway-options.js';
export { createGateway } from './gateway/lazy-gateway.js';
// The gateway's modules and the MCP SDK server load on first use (issue 9, import cost).
export { gatewayServerRequests } from './gateway/lazy-gateway-server-requests.js';
export { MemoryEventStores, type MemoryEventStoresOptions } from './gateway/memory-event-stores.js';
export { unwrapResourceUri, wrapResourceUri } from './gateway/resource-uri.js';
export type { SessionEventStores } from './gateway/session-event-stores.js';
// MCP servers
export { loadMCPServers } from './mcp/load-mcp-servers.js';
export type { LoadMcpServersOptions } from './mcp/mcp-tool-hub.js';
export type {
  CallOptions,
  ErrorInfo,
  MCPToolProvider,
  MultiServerList,
  PromptEntry,
  PromptResult,
  PromptService,
  ProviderEvents,
  ResourceContents,
  ResourceEntry,
  ResourceService,
  ResourceTemplateEntry,
  ServerError,
  ServerState,
  ServerStatus,
  TaskService,
  ToolOrigin,
  TransportKind,
  UpstreamNotification,
} from './mcp/provider-types.js';
export type { ReconnectOptions } from './mcp/reconnect-policy.js';
export type {
  ElicitationHandler,
  ElicitationRequest,
  RootInput,
  RootsHandler,
  SamplingHandler,
  SamplingRequest,
  ServerRequestContext,
} from './mcp/server-requests.js';
export type {
  AfterToolCallEvent,
  AfterToolCallHandler,
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  ApprovalRequirement,
  ApprovalResolution,
  BeforeToolCallEvent,
  BeforeToolCallHandler,
  BeforeToolCallResult,
  ToolCallDecision,
  ToolCallOutcome,
  ToolHookContext,
  ToolMiddleware,
  ToolResultPersistEvent,
  ToolResultPersistHandler,
} from './pipeline/tool-call-hooks.js';
export { applyToolOverride } from './pipeline/tool-override.js';
export { loadOpenClawPlugins } from './plugins/load-openclaw-plugins.js';
export type {
  LoadedOpenClawPlugins,
  LoadOpenClawPluginsOptions,
  PluginLoadResult,
  PluginLogger,
  PluginLogSink,
  PluginSpec,
  PluginSpecObject,
} from './plugins/plugin-types.js';
// OpenClaw plugins
export type { AuditRecord } from './policies/audit-log.js';
export { type ConfigPolicies, configPolicies } from './policies/config-policies.js';
export { policyWarnings } from './policies/policy-warnings.js';
// LLM providers
export {
  type AISDKTool,
  type AISDKToolOutput,
  type AnthropicTool,
  type ConversionReport,
  createProviderToolCaller,
  GEMINI_NAME_PATTERN,
  type GeminiFunctionDeclaration,
  type GeminiSchema,
  type GeminiTool,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  PROVIDER_NAME_PATTERNS,
  type ProviderName,
  type ProviderToolCaller,
  providerToolNames,
  stripStrictNulls,
  toAISDKToolOutput,
  toAISDKTools,
  toAnthropicToolResult,
  toAnthropicTools,
  toGeminiParameters,
  toGeminiToolResult,
  toGeminiTools,
  toOpenAIToolResult,
  toOpenAITools,
  toolConversionReports,
  validateAnthropicTool,
  validateGeminiDeclaration,
  validateOpenAITool,
} from './providers/index.js';
export { legalizeName, type NamingOptions, namespacedName, TOOL_NAME_PATTERN } from './registry/tool-name.js';
export {
  type CatalogEntry,
  type RegisterOptions,
  type RegistryChange,
  ToolRegistry,
  type ToolRegistryOptions,
} from './registry/tool-registry.js';
// Router tools
export { type CompactResult, type CompactState, formatCompact } from './router/compact-format.js';
export { createRouterTools } from './router/create-router-tools.js';
export {
  DEFAULT_LIST_MAX_RESOURCES,
  DEFAULT_READ_MAX_BYTES,
  DEFAULT_ROUTER_TOOL_NAMES,
  type RouterToolNames,
  type RouterToolsOptions,
} from './router/router-options.js';
export type { RouterFormat } from './router/router-result.js';
export { type EmbeddingCache, embeddingKey } from './router/search/embedding-cache.js';
export {
  type FileEmbeddingCacheOptions,
  fileEmbeddingCache,
} from './router/search/file-embedding-cache.js';
export { type OpenAIEmbeddingsOptions, openAIEmbeddings } from './router/search/openai-embeddings.js';
export { DEFAULT_SEARCH_TUNING, type SearchTuning } from './router/search/search-tuning.js';
export type { SearchableTool } from './router/search/searchable-tool.js';
export {
  DEFAULT_SEMANTIC_WAIT_MS,
  DEFAULT_SEMANTIC_WEIGHT,
  type EmbedTexts,
  type SemanticSearchOptions,
} from './router/search/semantic-search.js';
export {
  createToolSearchIndex,
  type ToolSearchHit,
  type ToolSearchIndex,
  type ToolSearchOptions,
} from './router/search/tool-search-index.js';
export { countTokens } from './router/token-count.js';
export type { ToolIndexEntry } from './router/tool-index-entry.js';
export {
  createToolIndexTool,
  DEFAULT_TOOL_INDEX_MAX_BYTES,
  type ToolIndexToolOptions,
} from './router/tool-index-tool.js';
export { ownerOnlyFilter, planModeFilter } from './router/tool-policy-filters.js';
export { type PolicyDecision, recordPolicyDecision } from './telemetry/mcptools-metrics.js';
// The Tool model and results
export {
  type CallContext,
  type Caller,
  defaultCallContext,
  executeWith,
  type InputRequest,
  type InputRequiredRelay,
  type UpstreamLogMessage,
  type UpstreamRequestContext,
  type UpstreamResume,
} from './tool/call-context.js';
export type {
  AudioContent,
  ContentBlock,
  EmbeddedResourceBody,
  EmbeddedResourceContent,
  ImageContent,
  OpenClawContentBlock,
  ResourceLinkContent,
  TextContent,
} from './tool/content.js';
export {
  base64ByteLength,
  capResultText,
  DEFAULT_MAX_RESULT_CHARS,
  errorResult,
  jsonResult,
  textResult,
  toOpenClawResult,
} from './tool/result.js';
export type {
  JsonSchemaObject,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolFactory,
  ToolResult,
  ToolSource,
  ToolUpdate,
  ToolUpdateCallback,
} from './tool/tool.js';
export { type Truncation, truncateChars, truncateUtf8 } from './tool/truncate.js';
