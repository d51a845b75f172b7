import type { McpConnection } from './mcp-connection.js';
import type { ServerStatus } from './provider-types.js';
import { errorInfo } from './server-directory.js';

/** The status row of one server connection: only the fields it has, its last error made printable. */
export function connectionStatus(connection: McpConnection): ServerStatus {
  return {
    name: connection.name,
    state: connection.state,
    ...(connection.transportKind === undefined ? {} : { transport: connection.transportKind }),
    ...(connection.protocolVersion === undefined ? {} : { protocolVersion: connection.protocolVersion }),
    ...(connection.era === undefined ? {} : { era: connection.era }),
    ...(connection.serverInfo === undefined
      ? {}
      : { serverInfo: { name: connection.serverInfo.name, version: connection.serverInfo.version } }),
    toolCount: connection.toolCount,
    resourceCount: connection.resourceCount,
    promptCount: connection.promptCount,
    ...(connection.lastError === undefined
      ? {}
      : {
          lastError: errorInfo(connection.lastError),
        }),
    reconnectAttempts: connection.reconnectAttempts,
    ...(connection.nextRetryAt === undefined ? {} : { nextRetryAt: connection.nextRetryAt }),
    ...(connection.pid === undefined ? {} : { pid: connection.pid }),
  };
}
