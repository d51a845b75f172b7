import type { Client } from '@modelcontextprotocol/client';
import type { ClientCallbacks } from './client-callbacks.js';
import { type ChangingList, refreshChangedList } from './refresh-changed-list.js';

const DEBOUNCE_MS = 50;

/**
 * On a client opened with the SDK's `listChanged` configurations (every era but a plain 2025
 * `initialize`, whose list changes reach `ClientCallbacks.clientListChanged` instead), listens for
 * `notifications/{tools,prompts,resources}/list_changed` that the server sends without having
 * declared `listChanged` (the Python SDK and fastmcp do), and refreshes the list as the SDK does
 * for declared ones. Be liberal in what you accept: a stale registry is worse
 * than an extra `tools/list`. Lists whose change the server did declare keep the SDK's handler;
 * lists the server has no capability for at all (never listed, see `McpConnection`) get none.
 */
export function acceptUndeclaredListChanges(client: Client, callbacks: ClientCallbacks): void {
  const capabilities = client.getServerCapabilities() ?? {};
  for (const list of LISTS) {
    const capability = capabilities[list];
    if (capability && !capability.listChanged) onChange(client, list, callbacks);
  }
}

const LISTS = ['tools', 'prompts', 'resources'] as const;

/** Debounced like the SDK's own handler, so a burst of notifications costs one re-list. */
function onChange(client: Client, list: ChangingList, callbacks: ClientCallbacks): void {
  let timer: NodeJS.Timeout | undefined;
  client.setNotificationHandler(`notifications/${list}/list_changed`, () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void refreshChangedList(client, list, callbacks);
    }, DEBOUNCE_MS);
    timer.unref();
  });
}
