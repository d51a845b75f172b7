import type { Client } from '@modelcontextprotocol/client';
import type { ClientCallbacks } from './client-callbacks.js';

/**
 * Hands the server's log messages and resource updates on to `callbacks` (for a gateway to
 * forward). Installed only once someone listens for them: without a handler the SDK drops them,
 * and each handler costs every client a few closures of the SDK's own.
 */
export function forwardNotifications(client: Client, callbacks: ClientCallbacks): void {
  client.setNotificationHandler('notifications/message', (notification) =>
    callbacks.clientNotification(client, { method: 'notifications/message', params: notification.params }),
  );
  client.setNotificationHandler('notifications/resources/updated', (notification) =>
    callbacks.clientNotification(client, {
      method: 'notifications/resources/updated',
      params: { uri: notification.params.uri },
    }),
  );
}
