import type {
  AfterToolCallHandler,
  BeforeToolCallHandler,
  ToolMiddleware,
  ToolResultPersistHandler,
} from '../pipeline/tool-call-hooks.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import type { PluginHookRegistration } from './create-plugin-api.js';
import type { LoadedPlugin } from './load-one-plugin.js';
import { pluginFaultGuard } from './plugin-fault-guard.js';

/** The middleware one `api.on` registration of `plugin` becomes: named by the plugin's id, run under its fault guard. */
function middlewareOf(plugin: LoadedPlugin, registration: PluginHookRegistration): ToolMiddleware {
  const handler = registration.handler;
  const middleware: ToolMiddleware = {
    name: plugin.id,
    onError: (message) => plugin.logger.error(`[hooks] ${message}`),
    runHandler: (work) => pluginFaultGuard.run(plugin.fault, work),
    ...(registration.priority === undefined ? {} : { priority: registration.priority }),
    ...(registration.matcher === undefined ? {} : { matcher: registration.matcher }),
    ...(registration.timeoutMs === undefined ? {} : { timeoutMs: registration.timeoutMs }),
  };
  if (registration.hookName === 'before_tool_call')
    middleware.beforeToolCall = handler as BeforeToolCallHandler;
  else if (registration.hookName === 'after_tool_call')
    middleware.afterToolCall = handler as AfterToolCallHandler;
  else middleware.toolResultPersist = handler as ToolResultPersistHandler;
  return middleware;
}

/**
 * Puts the tool hooks `plugin` registered with `api.on` (and any it registers later) into
 * `registry`'s pipeline. Returns the function that takes them out again (at unload).
 */
export function installPluginHooks(plugin: LoadedPlugin, registry: ToolRegistry): () => void {
  const removers: Array<() => void> = [];
  const install = (registration: PluginHookRegistration) =>
    removers.push(registry.use(middlewareOf(plugin, registration)));
  for (const registration of plugin.handle.hooks) install(registration);
  plugin.handle.onLateHook = install;
  return () => {
    plugin.handle.onLateHook = () => undefined;
    for (const remove of removers.splice(0)) remove();
  };
}
