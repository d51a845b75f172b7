/**
 * `mcptools/mcp`: the hub's services in detail, types only: resource contents and templates,
 * prompt results, tasks, results across servers, server→client requests and the notifications
 * a gateway forwards. The hub itself (`loadMcpServers`) is the package root's.
 */
export type {
  ErrorInfo,
  MultiServerList,
  PromptResult,
  ResourceContents,
  ResourceTemplateEntry,
  ServerError,
  TaskService,
  ToolOrigin,
  UpstreamNotification,
} from './mcp/hub-types.js';
export type { McpServerRequestRouter, ServerRequestDeclaration } from './mcp/routed-server-requests.js';
export type { ServePerCallerOptions } from './mcp/serve-per-caller-options.js';
export type { ElicitationRequest, SamplingRequest, ServerRequestContext } from './mcp/server-requests.js';
