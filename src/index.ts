/**
 * mcptools: every tool an agent can use behind one interface. The package root holds the tool
 * model, the call context, the registry, the configuration and the hub of MCP servers; the rest
 * are subpaths of their own, each loaded only by whoever imports it: `mcptools/gateway`,
 * `mcptools/router`, `mcptools/providers`, `mcptools/policies` (hooks, approvals and policies),
 * `mcptools/plugins`, `mcptools/auth` (OAuth and token stores), `mcptools/config` (discovery,
 * redaction, tool filters), `mcptools/results` (content blocks and size caps) and `mcptools/mcp`
 * (the hub's services in detail).
 */

// Configuration
export type {
  HttpServerConfig,
  McpToolsConfig,
  ProtocolMode,
  ServerConfig,
  StdioServerConfig,
} from './config/config-types.js';
export { findConfigFile } from './config/find-config-file.js';
export { type LoadConfigOptions, loadConfig } from './config/load-config.js';
export { type ParseConfigOptions, parseConfig } from './config/parse-config.js';
// Errors
export {
  McpToolsError,
  type McpToolsErrorCode,
  type McpToolsErrorOptions,
} from './errors/mcp-tools-error.js';
// The hub of MCP servers
export { loadMCPServers, loadMcpServers } from './hub/load-mcp-servers.js';
export type {
  CallOptions,
  MCPToolProvider,
  McpToolHub,
  McpToolHubEvents,
  PromptEntry,
  PromptService,
  ProtocolEra,
  ResourceEntry,
  ResourceService,
  ServerState,
  ServerStatus,
  TransportKind,
} from './mcp/hub-types.js';
export type { InProcessServer } from './mcp/in-process-server.js';
export type { LoadMcpServersOptions } from './mcp/mcp-tool-hub.js';
export type { ReconnectOptions } from './mcp/reconnect-policy.js';
export type { ElicitationHandler, RootInput, RootsHandler, SamplingHandler } from './mcp/server-requests.js';
// The registry: the catalog of tools, handed out through the tool-call pipeline
export { ToolRegistry, type ToolRegistryOptions } from './pipeline/tool-registry.js';
export type { CatalogEntry, RegisterOptions, RegistryChange } from './registry/tool-catalog.js';
export { namespacedName } from './registry/tool-name.js';
// The call context
export { type CallContext, type Caller, defaultCallContext } from './tool/call-context.js';
// The Tool model, its results, and calling a tool with its context
export type { ContentBlock } from './tool/content.js';
export { executeWith } from './tool/execute-with.js';
export { errorResult, jsonResult, textResult, toOpenClawResult } from './tool/result.js';
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
