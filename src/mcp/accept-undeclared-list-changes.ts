import type { Client } from '@modelcontextprotocol/client';
import type { ClientCallbacks } from './open-mcp-client.js';

const DEBOUNCE_MS = 50;

/**
 * Listens for `notifications/{tools,prompts,resources}/list_changed` that the server sends
 * without having declared `listChanged` (the Python SDK and fastmcp do), and refreshes the list
 * as the SDK does for declared ones. Be liberal in what you accept: a stale registry is worse
 * than an extra `tools/list`. Lists whose change the server did declare keep the SDK's handler;
 * lists the server has no capability for at all (never listed, see `McpConnection`) get none.
 */
export function acceptUndeclaredListChanges(client: Client, callbacks: ClientCallbacks): void {
  const capabilities = client.getServerCapabilities() ?? {};
  if (capabilities.tools && !capabilities.tools.listChanged) {
    onChange(client, 'notifications/tools/list_changed', async () => {
      try {
        callbacks.clientToolsChanged(
          client,
          null,
          (await client.listTools(undefined, { cacheMode: 'refresh' })).tools,
        );
      } catch (error) {
        callbacks.clientToolsChanged(client, error instanceof Error ? error : new Error(String(error)), null);
      }
    });
  }
  if (capabilities.prompts && !capabilities.prompts.listChanged) {
    onChange(client, 'notifications/prompts/list_changed', async () => {
      const prompts = await client.listPrompts(undefined, { cacheMode: 'refresh' }).catch(() => undefined);
      if (prompts) callbacks.clientCountChanged(client, 'promptCount', prompts.prompts);
    });
  }
  if (capabilities.resources && !capabilities.resources.listChanged) {
    onChange(client, 'notifications/resources/list_changed', async () => {
      const resources = await client
        .listResources(undefined, { cacheMode: 'refresh' })
        .catch(() => undefined);
      if (resources) callbacks.clientCountChanged(client, 'resourceCount', resources.resources);
    });
  }
}

type ListChangedMethod =
  | 'notifications/tools/list_changed'
  | 'notifications/prompts/list_changed'
  | 'notifications/resources/list_changed';

/** Debounced like the SDK's own handler, so a burst of notifications costs one re-list. */
function onChange(client: Client, method: ListChangedMethod, refresh: () => Promise<void>): void {
  let timer: NodeJS.Timeout | undefined;
  client.setNotificationHandler(method, () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void refresh();
    }, DEBOUNCE_MS);
    timer.unref();
  });
}
