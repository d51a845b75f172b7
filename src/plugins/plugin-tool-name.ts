import {
  legalizeName,
  type NamingOptions,
  namespacedName,
  TOOL_NAME_PATTERN,
  uniqueName,
} from '../registry/tool-name.js';

/** A plugin tool waiting for its exposed name. */
export interface PluginToolNameRequest {
  pluginId: string;
  originalName: string;
}

/** The key of a request in the map {@link planPluginToolNames} returns. */
export function pluginToolKey(pluginId: string, originalName: string): string {
  return `${pluginId}\u0000${originalName}`;
}

/**
 * The exposed name of one plugin tool: its own name when that is legal and free, else
 * `<pluginId>__<tool>` like an MCP tool, made unique against `taken`.
 */
export function exposedPluginToolName(
  request: PluginToolNameRequest,
  options: { collides: boolean; taken: (name: string) => boolean; naming?: NamingOptions },
): string {
  const maxLength = options.naming?.maxLength ?? 64;
  const { pluginId, originalName } = request;
  const legal = TOOL_NAME_PATTERN.test(originalName) && originalName.length <= maxLength;
  const base =
    options.collides || options.taken(originalName)
      ? namespacedName(pluginId, originalName, options.naming)
      : legal
        ? originalName
        : legalizeName(originalName, maxLength);
  return uniqueName(base, `${pluginId}/${originalName}`, options.taken, maxLength);
}

/**
 * Exposed names for every tool the plugins registered, decided together so the result does
 * not depend on load order: a name two plugins share, or one already in the registry (an
 * MCP tool, say), is namespaced for every plugin involved. Never throws on a collision.
 */
export function planPluginToolNames(
  requests: PluginToolNameRequest[],
  taken: (name: string) => boolean,
  naming?: NamingOptions,
): Map<string, string> {
  const owners = new Map<string, Set<string>>();
  for (const request of requests) {
    const set = owners.get(request.originalName) ?? new Set<string>();
    set.add(request.pluginId);
    owners.set(request.originalName, set);
  }
  const assigned = new Set<string>();
  const names = new Map<string, string>();
  for (const request of requests) {
    const key = pluginToolKey(request.pluginId, request.originalName);
    if (names.has(key)) continue;
    const name = exposedPluginToolName(request, {
      collides: (owners.get(request.originalName)?.size ?? 0) > 1,
      taken: (candidate) => taken(candidate) || assigned.has(candidate),
      ...(naming ? { naming } : {}),
    });
    assigned.add(name);
    names.set(key, name);
  }
  return names;
}
