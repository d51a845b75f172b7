import type { McpToolsConfig } from '../config/config-types.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';

/** Loads a reloaded configuration's OpenClaw plugins in place of the running ones. */
export type PluginReloader = (before: McpToolsConfig, after: McpToolsConfig) => Promise<void>;

/**
 * Makes the plugin step of a reload: when the `plugins` list differs, the running plugins are
 * unloaded (their tools and hooks leave the registry; `unload` is the running set's) and the new
 * list is loaded. Node keeps an imported module, so a plugin whose code changed runs its old
 * code with its new `config` until a restart; one added or removed takes effect at once. A
 * plugin that fails to load is logged and the others still load (as at start).
 */
export function pluginReloader(
  registry: ToolRegistry,
  unload: () => void,
  log: (message: string, level?: 'info' | 'warn' | 'error') => void,
  /** Settles once the plugins of the start are loaded (`serve --stdio` loads them in the background). */
  started: Promise<unknown> = Promise.resolve(),
): PluginReloader {
  let unloadRunning = unload;
  return async (before, after) => {
    // Not before the start's own load: it would register the old list after the new one.
    await started.catch(() => undefined);
    if (JSON.stringify(before.plugins ?? []) === JSON.stringify(after.plugins ?? [])) return;
    unloadRunning();
    unloadRunning = () => {};
    if (!after.plugins?.length) return;
    const { loadOpenClawPlugins } = await import('../plugins/load-openclaw-plugins.js');
    const loaded = await loadOpenClawPlugins(after.plugins, registry);
    unloadRunning = () => loaded.unload();
    for (const plugin of loaded.plugins)
      if (plugin.status === 'error') log(plugin.error ?? `plugin ${plugin.id} failed`, 'error');
  };
}
