/**
 * mcptools: every tool an agent can use behind one interface. The package root holds the tool
 * model, the registry, the configuration and the hub of MCP servers; the gateway, the router
 * tools, the provider adapters, the policies and the OpenClaw plugin loader are subpaths of
 * their own (`mcptools/gateway`, `mcptools/router`, `mcptools/providers`, `mcptools/policies`,
 * `mcptools/plugins`), each loaded only by whoever imports it.
 */

// OAuth for remote servers
export { authCommand } from './auth/auth-required-error.js';
export { defaultVaultPath } from './auth/default-vault-path.js';
export { FileTokenStore } from './auth/file-token-store.js';
export { MemoryTokenStore } from './auth/memory-token-store.js';
export type { AuthorizationStart, AuthorizationUrlHandler } from './auth/server-authorization.js';
export type { OAuthHostOptions } from './auth/server-authorizations.js';
export type { TokenStore, VaultEntry, VaultUpdate } from './auth/token-store.js';
// Configuration
export { type ConfigSearchOptions, configSearchPaths } from './config/config-search-paths.js';
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
export { compileToolFilter, type ToolFilter } from './config/tool-filter.js';
// Errors
export {
  McpToolsError,
  type McpToolsErrorCode,
  type McpToolsErrorOptions,
} from './errors/mcp-tools-error.js';
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
// The registry
export { legalizeName, type NamingOptions, namespacedName, TOOL_NAME_PATTERN } from './registry/tool-name.js';
export {
  type CatalogEntry,
  type RegisterOptions,
  type RegistryChange,
  ToolRegistry,
  type ToolRegistryOptions,
} from './registry/tool-registry.js';
// The Tool model and results
export {
  type CallContext,
  type Caller,
  defaultCallContext,
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
export { executeWith } from './tool/execute-with.js';
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
