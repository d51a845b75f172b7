import { McpToolsError } from '../errors/mcp-tools-error.js';
import { createPluginApi, type PluginApiHandle } from './create-plugin-api.js';
import { createPluginLogger } from './create-plugin-logger.js';
import {
  importPluginModule,
  type PluginEntryExport,
  resolvePluginEntryExport,
} from './import-plugin-entry.js';
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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

/**
 * Resolves, imports, configures and registers one plugin. Throws {@link PluginLoadFailure}
 * with a message naming the plugin; the caller isolates it from the others.
 */
export async function loadOnePlugin(
  spec: PluginSpecObject,
  context: { cwd: string; config: Record<string, unknown>; sink?: PluginLogSink },
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
    const entries: Array<PluginEntryExport & { file: string }> = [];
    for (const file of location.entryFiles) {
      entries.push({ ...resolvePluginEntryExport(await importPluginModule(file), file), file });
    }
    const definition = entries[0]?.definition;
    const id = stringField(manifest?.id, definition?.id) ?? location.fallbackId;
    const name = stringField(manifest?.name, definition?.name) ?? id;
    const version = stringField(manifest?.version, definition?.version, packageJson?.version);
    const description = stringField(manifest?.description, definition?.description, packageJson?.description);
    const source = entries[0]?.file ?? location.rootDir;
    partial = { id, name, source, rootDir: location.rootDir, ...(version ? { version } : {}) };
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
      cwd: context.cwd,
    });
    stage = 'threw in register';
    for (const entry of entries) {
      // `register` may be a method of the definition object; keep its `this`.
      await entry.register.call(entry.definition, handle.api);
    }
    return {
      id,
      name,
      source,
      rootDir: location.rootDir,
      handle,
      logger,
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
