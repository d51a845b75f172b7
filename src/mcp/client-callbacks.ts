import type { Client, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { UpstreamNotification } from './hub-types.js';

/**
 * What a freshly opened client reports to (its connection); each call names the client so that
 * a stale one can be ignored. Methods, not closures: one connection serves every client it opens.
 */
export interface ClientCallbacks {
  clientToolsChanged(client: Client, error: Error | null, tools: McpToolDefinition[] | null): void;
  clientCountChanged(client: Client, field: 'resourceCount' | 'promptCount', items: unknown[] | null): void;
  clientClosed(client: Client): void;
  /**
   * A notification no handler took (over 2025: `notifications/<list>/list_changed`, declared
   * or not, among others to ignore).
   */
  clientListChanged(client: Client, method: string): void;
  /** Logs and resource updates, for a gateway to forward (see `forwardNotifications`). */
  clientNotification(client: Client, notification: UpstreamNotification): void;
  clientTransportError(client: Client, message: string): void;
}
