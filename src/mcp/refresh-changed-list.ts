import type { Client, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { ClientCallbacks } from './client-callbacks.js';

/** A list whose change a server announces with `notifications/<list>/list_changed`. */
export type ChangingList = 'tools' | 'prompts' | 'resources';

/** The list a `notifications/{tools,prompts,resources}/list_changed` method names, else `undefined`. */
export function changedListOf(method: string): ChangingList | undefined {
  if (method === 'notifications/tools/list_changed') return 'tools';
  if (method === 'notifications/prompts/list_changed') return 'prompts';
  if (method === 'notifications/resources/list_changed') return 'resources';
  return undefined;
}

/**
 * Lists `list` of `client` again and hands the result to its callbacks, as the SDK's own
 * `listChanged` handling does: the tools (or the error) to `clientToolsChanged`, the number of
 * prompts or resources to `clientCountChanged` (a failed count is dropped). Never rejects.
 */
export async function refreshChangedList(
  client: Client,
  list: ChangingList,
  callbacks: ClientCallbacks,
): Promise<void> {
  if (list === 'tools') {
    let tools: McpToolDefinition[];
    try {
      tools = (await client.listTools(undefined, { cacheMode: 'refresh' })).tools;
    } catch (error) {
      callbacks.clientToolsChanged(client, error instanceof Error ? error : new Error(String(error)), null);
      return;
    }
    callbacks.clientToolsChanged(client, null, tools);
    return;
  }
  if (list === 'prompts') {
    const prompts = await client.listPrompts(undefined, { cacheMode: 'refresh' }).catch(() => undefined);
    if (prompts) callbacks.clientCountChanged(client, 'promptCount', prompts.prompts);
    return;
  }
  const resources = await client.listResources(undefined, { cacheMode: 'refresh' }).catch(() => undefined);
  if (resources) callbacks.clientCountChanged(client, 'resourceCount', resources.resources);
}
