import { McpToolsError } from '../errors/mcp-tools-error.js';
import { messageOf } from '../errors/message-of.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import { installPluginHooks } from './install-plugin-hooks.js';
import { type LoadedPlugin, loadOnePlugin, PluginLoadFailure } from './load-one-plugin.js';
import { type PluginFaultTarget, pluginFaultGuard } from './plugin-fault-guard.js';
import { pluginStateRoot } from './plugin-state-dir.js';
import type {
  LoadedOpenClawPlugins,
  LoadOpenClawPluginsOptions,
  PluginLoadResult,
  PluginSpec,
  PluginSpecObject,
} from './plugin-types.js';
import { type PluginToolSource, registerPluginTools } from './register-plugin-tools.js';

const DEFAULT_TIMEOUT_MS = 30_000;

/** A fault guard target that records a plugin's stray failure on its load result (status `error`). */
function faultTarget(
  spec: string,
  options: LoadOpenClawPluginsOptions,
): PluginFaultTarget & { reason?: string; result?: PluginLoadResult } {
  const target: PluginFaultTarget & { reason?: string; result?: PluginLoadResult } = {
    id: spec,
    fail(reason) {
      const message = `Plugin "${target.id}" failed with an ${reason}`;
      try {
        options.logger?.error?.(message);
      } catch {
        // A failing sink must not turn a recorded fault into a new one.
      }
      target.reason ??= reason;
      if (target.result && target.result.status !== 'error') {
        target.result.status = 'error';
        target.result.error = message;
      }
    },
  };
  return target;
}

/** Runs `work` with a deadline and the caller's signal; the timer and listener are always removed. */
async function withDeadline<T>(
  work: Promise<T>,
  label: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new McpToolsError('TIMEOUT', `${label} took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    onAbort = () => reject(new McpToolsError('ABORTED', `${label} was aborted`));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Loads OpenClaw plugins and registers their tools into `registry`, beside MCP and native
 * tools. Each spec is an installed package name, a plugin directory or entry file, or
 * `{ spec, config, enabled, allow, deny }`. Entries may be ESM, CommonJS or TypeScript and
 * may import `openclaw/plugin-sdk/*`, which resolves to mcptools' own helpers. A plugin that
 * fails to load, has an invalid config or throws in `register` is reported with
 * `status: 'error'` and the others still load; colliding tool names are namespaced
 * `<pluginId>__<tool>`. Rejects only when `signal` aborts.
 *
 * @example
 * const registry = new ToolRegistry({ allow: ['*'] });
 * const { plugins } = await loadOpenClawPlugins(
 *   ['@ollama/openclaw-web-search', { spec: './my-plugin', config: { apiUrl: 'http://127.0.0.1:8080' } }],
 *   registry,
 * );
 * const tools = await registry.resolveAll({ workspaceDir: process.cwd() });
 */
export async function loadOpenClawPlugins(
  specs: PluginSpec[],
  registry: ToolRegistry,
  options: LoadOpenClawPluginsOptions = {},
): Promise<LoadedOpenClawPlugins> {
  const cwd = options.cwd ?? process.cwd();
  const config = options.config ?? {};
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const results: PluginLoadResult[] = [];
  const sources: PluginToolSource[] = [];
  const byResult = new Map<PluginLoadResult, LoadedPlugin>();
  const seenIds = new Set<string>();
  const stateRoot = pluginStateRoot(options.stateDir);
  const faults: PluginFaultTarget[] = [];

  for (const entry of specs) {
    if (options.signal?.aborted) throw new McpToolsError('ABORTED', 'Loading OpenClaw plugins was aborted');
    const spec: PluginSpecObject = typeof entry === 'string' ? { spec: entry } : entry;
    const base = { spec: spec.spec, tools: [], optionalTools: [], ignored: {} };
    if (spec.enabled === false) {
      results.push({ ...base, id: spec.spec, status: 'disabled' });
      continue;
    }
    const fault = faultTarget(spec.spec, options);
    faults.push(fault);
    pluginFaultGuard.add(fault);
    try {
      // Plugins load one after another: their modules may share state and `register` is usually synchronous.
      const plugin = await withDeadline(
        loadOnePlugin(spec, {
          cwd,
          config,
          stateRoot,
          fault,
          ...(options.strict ? { strict: true } : {}),
          ...(options.logger ? { sink: options.logger } : {}),
        }),
        `Plugin "${spec.spec}"`,
        timeoutMs,
        options.signal,
      );
      if (seenIds.has(plugin.id)) {
        results.push({
          ...base,
          id: plugin.id,
          status: 'error',
          error: `Plugin "${plugin.id}" is loaded twice (${spec.spec}); the second copy is ignored`,
        });
        continue;
      }
      seenIds.add(plugin.id);
      const result: PluginLoadResult = {
        ...base,
        id: plugin.id,
        name: plugin.name,
        source: plugin.source,
        rootDir: plugin.rootDir,
        status: 'loaded',
        ignored: plugin.handle.ignored,
        ...(plugin.handle.hooks.length === 0
          ? {}
          : { hooks: plugin.handle.hooks.map((hook) => hook.hookName) }),
        ...(plugin.version ? { version: plugin.version } : {}),
      };
      results.push(result);
      fault.result = result;
      sources.push({ plugin, spec });
      byResult.set(result, plugin);
    } catch (error) {
      if (McpToolsError.isInstance(error) && error.code === 'ABORTED') throw error;
      const partial = error instanceof PluginLoadFailure ? error.partial : { id: spec.spec };
      // loadOnePlugin's failures and the deadline's both name the plugin already.
      const message = messageOf(error);
      options.logger?.warn?.(message);
      const failed: PluginLoadResult = { ...base, ...partial, status: 'error', error: message };
      results.push(failed);
      fault.result = failed;
    }
  }

  const summaries = registerPluginTools(sources, registry, {
    config,
    ...(options.naming ? { naming: options.naming } : {}),
  });
  // Their `before_tool_call` / `after_tool_call` / `tool_result_persist` hooks join the
  // registry's pipeline: they guard every tool, MCP and native ones included.
  const hookRemovers = sources.map(({ plugin }) => installPluginHooks(plugin, registry));
  for (const [result, plugin] of byResult) {
    const summary = summaries.get(plugin.id);
    if (summary) {
      result.tools = summary.tools;
      result.optionalTools = summary.optionalTools;
    }
  }

  let unloaded = false;
  return {
    plugins: results,
    unload() {
      if (unloaded) return;
      unloaded = true;
      for (const remove of hookRemovers) remove();
      for (const { plugin } of sources) {
        // Late `registerTool` calls after unload must not bring tools back.
        plugin.handle.onLateTool = () => undefined;
        registry.unregisterOwner(`plugin:${plugin.id}`);
        void plugin.handle.dispose();
      }
      for (const fault of faults) pluginFaultGuard.remove(fault);
    },
  };
}
