/**
 * `mcptools/gateway`: serves a registry (native, plugin and MCP tools, or the router tools) as
 * one MCP server to clients of both eras, over HTTP and stdio. Importing it loads the MCP SDK
 * server; the package root does not.
 */

export type { GatewayConfig, GatewayMode, GatewayProfileConfig } from './config/config-types.js';
export type { GatewayLimitsConfig } from './config/gateway-limits-types.js';
export { gatewayServerRequests } from './gateway/calls/gateway-server-requests.js';
export { createGateway, type Gateway, type ListenOptions } from './gateway/create-gateway.js';
export { DEFAULT_MAX_BODY_BYTES, type GatewayOptions } from './gateway/gateway-options.js';
export { unwrapResourceUri, wrapResourceUri } from './gateway/resources/resource-uri.js';
export { MemoryEventStores, type MemoryEventStoresOptions } from './gateway/sessions/memory-event-stores.js';
export type { SessionEventStores } from './gateway/sessions/session-event-stores.js';
export type {
  InputRequest,
  InputRequiredRelay,
  UpstreamLogMessage,
  UpstreamRequestContext,
  UpstreamResume,
} from './tool/call-context.js';
