import { compileToolFilter } from '../config/tool-filter.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import type { NamingOptions } from '../registry/tool-name.js';
import type { Tool, ToolContext, ToolFactory } from '../tool/tool.js';
import { adaptPluginTool, isRawPluginTool, type RawPluginTool } from './adapt-plugin-tool.js';
import type { PluginToolRegistration } from './create-plugin-api.js';
import { contractTools, type LoadedPlugin } from './load-one-plugin.js';
import { pluginFaultGuard } from './plugin-fault-guard.js';
import { exposedPluginToolName, planPluginToolNames, pluginToolKey } from './plugin-tool-name.js';
import type { PluginSpecObject } from './plugin-types.js';

/** What one plugin ended up with in the registry. */
export interface PluginToolSummary {
  tools: string[];
  optionalTools: string[];
}

/** The pieces of a plugin the tool registration needs. */
export interface PluginToolSource {
  plugin: LoadedPlugin;
  spec: PluginSpecObject;
}

interface Policy {
  /** Allowed by the spec: not denied, and matched by `allow` when there is one. */
  passes(originalName: string, exposedName?: string): boolean;
  /** Named by the spec's `allow` (which switches an optional tool on). */
  allowed(originalName: string, exposedName?: string): boolean;
  optional(originalName: string, ...flags: Array<boolean | undefined>): boolean;
}

function policyFor({ plugin, spec }: PluginToolSource): Policy {
  const allow = spec.allow ?? [];
  const allowMatch = allow.length > 0 ? compileToolFilter({ allow }) : undefined;
  const notDenied = compileToolFilter({ deny: spec.deny ?? [] });
  const aliases = (original: string, exposed?: string) => [
    original,
    `${plugin.id}/${original}`,
    plugin.id,
    ...(exposed ? [exposed] : []),
  ];
  return {
    passes: (original, exposed) =>
      notDenied(...aliases(original, exposed)) && (!allowMatch || allowMatch(...aliases(original, exposed))),
    allowed: (original, exposed) => allowMatch?.(...aliases(original, exposed)) ?? false,
    optional: (original, ...flags) =>
      flags.some((flag) => flag === true) || plugin.manifest?.toolMetadata?.[original]?.optional === true,
  };
}

function declaredNames(registration: PluginToolRegistration): string[] {
  if (registration.tool) return [(registration.tool as RawPluginTool).name];
  const { name, names } = registration.options;
  const all = [...(Array.isArray(names) ? names : []), ...(typeof name === 'string' ? [name] : [])];
  return [...new Set(all.filter((entry) => typeof entry === 'string' && entry.length > 0))];
}

function flattenProduced(produced: unknown): unknown[] {
  if (produced === null || produced === undefined) return [];
  return Array.isArray(produced) ? produced.flat(Number.POSITIVE_INFINITY) : [produced];
}

/**
 * Registers the plugins' tools into `registry`, naming them together (see
 * `planPluginToolNames`), and wires each plugin so that `registerTool` calls made after
 * loading are registered at once. Factories run at `resolveAll(context)` with the context
 * (its `config` defaulting to the host config); `null` opts out, arrays flatten.
 */
export function registerPluginTools(
  sources: PluginToolSource[],
  registry: ToolRegistry,
  options: { config: Record<string, unknown>; naming?: NamingOptions },
): Map<string, PluginToolSummary> {
  const summaries = new Map<string, PluginToolSummary>();
  const policies = new Map(sources.map((source) => [source.plugin.id, policyFor(source)]));
  const requests = sources.flatMap(({ plugin }) =>
    plugin.handle.tools.flatMap((registration) =>
      declaredNames(registration)
        .filter((name) => policies.get(plugin.id)?.passes(name))
        .map((originalName) => ({ pluginId: plugin.id, originalName })),
    ),
  );
  const planned = planPluginToolNames(requests, (name) => registry.has(name), options.naming);

  for (const source of sources) {
    const { plugin } = source;
    const policy = policies.get(plugin.id)!;
    const summary: PluginToolSummary = { tools: [], optionalTools: [] };
    summaries.set(plugin.id, summary);
    const owner = `plugin:${plugin.id}`;
    const run = <T>(work: () => T): T => pluginFaultGuard.run(plugin.fault, work);
    const lifecycle = (plugin.handle.api.lifecycle ?? {}) as { signal?: AbortSignal };
    const assertCurrent = (): void => {
      if (lifecycle.signal?.aborted)
        throw new Error(`Plugin "${plugin.id}" tool runtime is no longer active.`);
    };
    const nameFor = (original: string, late: boolean): string =>
      (late ? undefined : planned.get(pluginToolKey(plugin.id, original))) ??
      exposedPluginToolName(
        { pluginId: plugin.id, originalName: original },
        {
          collides: false,
          taken: (name) => registry.has(name),
          ...(options.naming ? { naming: options.naming } : {}),
        },
      );

    const commit = (registration: PluginToolRegistration, late: boolean): void => {
      try {
        if (registration.tool) {
          const raw = registration.tool as RawPluginTool;
          const exposed = nameFor(raw.name, late);
          if (!policy.passes(raw.name, exposed)) return;
          const optional =
            policy.optional(raw.name, registration.options.optional, raw.optional) &&
            !policy.allowed(raw.name, exposed);
          registry.register(adaptPluginTool(raw, { pluginId: plugin.id, exposedName: exposed, run }), {
            source: 'plugin',
            server: plugin.id,
            category: plugin.id,
            owner,
            optional,
          });
          summary.tools.push(exposed);
          if (optional) summary.optionalTools.push(exposed);
          return;
        }
        const declared = declaredNames(registration).filter((name) => policy.passes(name));
        if (declaredNames(registration).length > 0 && declared.length === 0) return;
        const exposedByOriginal = new Map(declared.map((name) => [name, nameFor(name, late)]));
        const optional =
          declared.length > 0 &&
          declared.every(
            (name) =>
              policy.optional(name, registration.options.optional) &&
              !policy.allowed(name, exposedByOriginal.get(name)),
          );
        const ownNames = new Set(exposedByOriginal.values());
        const factory: ToolFactory = async (context: ToolContext) => {
          let produced: unknown;
          try {
            const factoryContext: Record<string, unknown> = {
              ...context,
              config: context.config ?? options.config,
            };
            // Version 2 factories check that the call is still admitted; here the caller's resolveAll admits it.
            if (registration.contextVersion === 2) factoryContext.assertInvocationCurrent = assertCurrent;
            produced = await run(() => registration.factory!(factoryContext));
          } catch (error) {
            plugin.logger.warn(
              `tool factory ${[...exposedByOriginal.keys()].join(', ')} threw; skipped:`,
              error,
            );
            return null;
          }
          const tools: Tool[] = [];
          for (const raw of flattenProduced(produced)) {
            if (!isRawPluginTool(raw)) {
              plugin.logger.warn('tool factory returned something that is not a tool; skipped');
              continue;
            }
            const exposed =
              exposedByOriginal.get(raw.name) ??
              exposedPluginToolName(
                { pluginId: plugin.id, originalName: raw.name },
                {
                  collides: false,
                  taken: (name) => registry.has(name) && !ownNames.has(name),
                  ...(options.naming ? { naming: options.naming } : {}),
                },
              );
            if (!policy.passes(raw.name, exposed)) continue;
            // An optional tool the entry was not registered as optional for cannot be switched on by a registry glob.
            if (
              !optional &&
              policy.optional(raw.name, registration.options.optional, raw.optional) &&
              !policy.allowed(raw.name, exposed)
            )
              continue;
            tools.push(adaptPluginTool(raw, { pluginId: plugin.id, exposedName: exposed, run }));
          }
          return tools;
        };
        registry.register(factory, {
          names: [...ownNames],
          source: 'plugin',
          server: plugin.id,
          category: plugin.id,
          owner,
          optional,
        });
        summary.tools.push(...ownNames);
        if (optional) summary.optionalTools.push(...ownNames);
      } catch (error) {
        plugin.logger.warn('a tool could not be registered; skipped:', error);
      }
    };

    for (const registration of plugin.handle.tools) commit(registration, false);
    // Factories registered without names are listed by the names the manifest's contracts.tools declares.
    if (plugin.handle.tools.some((registration) => declaredNames(registration).length === 0)) {
      const listed = new Set(summary.tools);
      for (const name of contractTools(plugin.manifest)) {
        if (listed.has(name) || !policy.passes(name)) continue;
        summary.tools.push(name);
        if (policy.optional(name) && !policy.allowed(name)) summary.optionalTools.push(name);
      }
    }
    plugin.handle.onLateTool = (registration) => commit(registration, true);
  }
  return summaries;
}
