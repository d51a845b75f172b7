import { McpToolsError } from '../errors/mcp-tools-error.js';
import { messageOf } from '../errors/message-of.js';
import { createPluginApi, type PluginApiHandle } from './create-plugin-api.js';
import { createPluginLogger } from './create-plugin-logger.js';
import {
  importPluginModule,
  type PluginEntryExport,
  resolvePluginEntryExport,
} from './import-plugin-entry.js';
import { type PluginFaultTarget, pluginFaultGuard } from './plugin-fault-guard.js';
import type { PluginManifest } from './plugin-manifest.js';
import type { PluginLogSink, PluginSpecObject } from './plugin-types.js';
import { resolvePluginLocation } from './resolve-plugin-location.js';
import { validatePluginConfig } from './validate-plugin-config.js';

/** A plugin whose `register` ran to the end. */
export interface LoadedPlugin {
  id: string;
  name: string;
  version?: string;
  source: string;
  rootDir: string;
  manifest?: PluginManifest;
  handle: PluginApiHandle;
  logger: ReturnType<typeof createPluginLogger>;
  /** Where its stray failures are recorded (the loader's fault guard target). */
  fault: PluginFaultTarget;
}

/** Why a plugin did not load, with whatever was learnt about it before it failed. */
export class PluginLoadFailure extends Error {
  constructor(
    message: string,
    readonly partial: { id: string; name?: string; version?: string; source?: string; rootDir?: string },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PluginLoadFailure';
  }
}

function stringField(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === 'string' && value.length > 0);
}

/** The JSON Schema an entry's definition declares (`definePluginEntry` style or a plain schema). */
function definitionSchema(
  definition: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const schema = definition?.configSchema;
  if (typeof schema !== 'object' || schema === null) return undefined;
  const record = schema as Record<string, unknown>;
  if (typeof record.jsonSchema === 'object' && record.jsonSchema !== null) {
    return record.jsonSchema as Record<string, unknown>;
  }
  return 'type' in record || 'properties' in record ? record : undefined;
}

function isThenable(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** What OpenClaw 2026.9 requires of a manifest before it imports the plugin, or `undefined`. */
function strictManifestViolation(manifest: PluginManifest | undefined): string | undefined {
  if (!manifest) return 'has no openclaw.plugin.json manifest (strict)';
  if (typeof manifest.configSchema !== 'object' || manifest.configSchema === null) {
    return 'has no configSchema in openclaw.plugin.json (strict)';
  }
  return undefined;
}

/** Under strict, every tool a plugin registers must be declared in the manifest's `contracts.tools`. */
function strictToolViolation(
  manifest: PluginManifest | undefined,
  handle: PluginApiHandle,
): string | undefined {
  if (handle.tools.length === 0) return undefined;
  const declared = contractTools(manifest);
  if (declared.length === 0)
    return 'registers tools but declares no contracts.tools in openclaw.plugin.json (strict)';
  const named = handle.tools.flatMap((registration) => {
    const tool = registration.tool as { name?: unknown } | undefined;
    if (typeof tool?.name === 'string') return [tool.name];
    const { name, names } = registration.options;
    return [...(Array.isArray(names) ? names : []), ...(typeof name === 'string' ? [name] : [])];
  });
  const undeclared = named.filter((name) => !declared.includes(name));
  return undeclared.length > 0
    ? `registers tools missing from contracts.tools: ${undeclared.join(', ')} (strict)`
    : undefined;
}

/** The tool names a manifest declares in `contracts.tools`. */
export function contractTools(manifest: PluginManifest | undefined): string[] {
  const tools = (manifest?.contracts as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) ? tools.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * Resolves, imports, configures and registers one plugin. Throws {@link PluginLoadFailure}
 * with a message naming the plugin; the caller isolates it from the others.
 */
export async function loadOnePlugin(
  spec: PluginSpecObject,
  context: {
    cwd: string;
    config: Record<string, unknown>;
    sink?: PluginLogSink;
    stateRoot: string;
    /** Apply OpenClaw 2026.9's own rules (see {@link strictRuleViolation}). */
    strict?: boolean;
    /** Where the plugin's stray failures are recorded; its `id` and `rootDir` are filled in here. */
    fault: PluginFaultTarget & { reason?: string };
  },
): Promise<LoadedPlugin> {
  let partial: PluginLoadFailure['partial'] = { id: spec.spec };
  let stage = 'failed to load';
  try {
    const location = resolvePluginLocation(spec.spec, context.cwd);
    const { manifest, packageJson } = location;
    partial = {
      id: stringField(manifest?.id) ?? location.fallbackId,
      rootDir: location.rootDir,
      source: location.entryFiles[0],
    };
    context.fault.id = partial.id;
    context.fault.rootDir = location.rootDir;
    if (location.entryFiles.length === 1) context.fault.source = location.entryFiles[0];
    if (context.strict) {
      const violation = strictManifestViolation(manifest);
      if (violation) throw new Error(violation);
    }
    const entries: Array<PluginEntryExport & { file: string }> = [];
    for (const file of location.entryFiles) {
      const imported = await pluginFaultGuard.run(context.fault, () =>
        importPluginModule(file, { strict: context.strict === true }),
      );
      entries.push({ ...resolvePluginEntryExport(imported, file), file });
    }
    const definition = entries[0]?.definition;
    const id = stringField(manifest?.id, definition?.id) ?? location.fallbackId;
    const name = stringField(manifest?.name, definition?.name) ?? id;
    const version = stringField(manifest?.version, definition?.version, packageJson?.version);
    const description = stringField(manifest?.description, definition?.description, packageJson?.description);
    const source = entries[0]?.file ?? location.rootDir;
    partial = { id, name, source, rootDir: location.rootDir, ...(version ? { version } : {}) };
    context.fault.id = id;
    stage = 'has an invalid config';
    const pluginConfig = validatePluginConfig(
      id,
      manifest?.configSchema ?? definitionSchema(definition),
      spec.config,
    );
    const logger = createPluginLogger(id, context.sink);
    const handle = createPluginApi({
      identity: {
        id,
        name,
        source,
        rootDir: location.rootDir,
        ...(version ? { version } : {}),
        ...(description ? { description } : {}),
      },
      config: context.config,
      pluginConfig,
      logger,
      stateRoot: context.stateRoot,
    });
    stage = 'threw in register';
    for (const entry of entries) {
      // `register` may be a method of the definition object; keep its `this`.
      const returned = pluginFaultGuard.run(context.fault, () =>
        entry.register.call(entry.definition, handle.api),
      );
      if (context.strict && isThenable(returned)) {
        (returned as Promise<unknown>).then(undefined, () => undefined);
        throw new Error('register returned a promise; OpenClaw 2026.9 requires a synchronous register');
      }
      await returned;
    }
    // A rejection `register` left behind surfaces once the current turn ends: wait for it.
    await new Promise((resolve) => setImmediate(resolve));
    if (context.fault.reason) throw new Error(context.fault.reason);
    if (context.strict) {
      const violation = strictToolViolation(manifest, handle);
      if (violation) throw new Error(violation);
    }
    return {
      id,
      name,
      source,
      rootDir: location.rootDir,
      handle,
      logger,
      fault: context.fault,
      ...(version ? { version } : {}),
      ...(manifest ? { manifest } : {}),
    };
  } catch (error) {
    if (
      McpToolsError.isInstance(error) &&
      error.code === 'CONFIG_INVALID' &&
      stage === 'has an invalid config'
    ) {
      throw new PluginLoadFailure(error.message, partial, { cause: error });
    }
    throw new PluginLoadFailure(`Plugin "${partial.id}" ${stage}: ${messageOf(error)}`, partial, {
      cause: error,
    });
  }
}
