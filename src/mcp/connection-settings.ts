import type { Implementation, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { TransportAuth } from '../auth/transport-auth.js';
import type { ProtocolMode } from '../config/config-types.js';
import type { SecretRedactor } from '../config/secret-redactor.js';
import type { PinGuard } from '../pins/pin-guard.js';
import type { EraMemory } from './era-memory.js';
import type { McpConnection } from './mcp-connection.js';
import type { UpstreamNotification } from './provider-types.js';
import type { ReconnectPolicy } from './reconnect-policy.js';
import type { ServerRequestOptions } from './server-requests.js';
import type { SizeLimits } from './size-limited-fetch.js';

/** What a connection tells its hub. */
export interface ConnectionListeners {
  /** Connected (first time or again), with the server's tools (a connection does not keep them). */
  connected(connection: McpConnection, tools: McpToolDefinition[]): void;
  /** The server's tool list changed while connected (or was listed again). */
  toolsChanged(connection: McpConnection, tools: McpToolDefinition[]): void;
  /** State, counts or error changed. */
  stateChanged(connection: McpConnection): void;
  warning(message: string, connection: McpConnection): void;
  /** A notification a gateway forwards (logs, resource updates, resource/prompt list changes). */
  notification(connection: McpConnection, notification: UpstreamNotification): void;
  /** `true` once someone listens for logs and resource updates (see {@link McpConnection.forwardNotifications}). */
  wantsNotifications(): boolean;
}

/** Settings of {@link McpConnection}s: one object, shared by every connection of a hub. */
export interface McpConnectionOptions {
  clientInfo: Implementation;
  reconnect: ReconnectPolicy;
  requests: ServerRequestOptions;
  listeners: ConnectionListeners;
  /** The `protocol` of a server that sets none. Default `initialize`. */
  protocol?: ProtocolMode;
  /** Where the era of each server is remembered between connects and runs. */
  eras?: EraMemory;
  /** Hides configured secrets in every error and message this connection produces. */
  redactor: SecretRedactor;
  /** HTTP size limits. */
  limits?: SizeLimits;
  /** Holds back tool definitions that differ from their pins, before anything else reads them. */
  pins?: PinGuard;
}

/** Settings of one server's {@link McpConnection}. */
export interface McpServerSettings {
  connectTimeoutMs: number;
  /** OAuth for an HTTP server. */
  auth?: TransportAuth;
}
