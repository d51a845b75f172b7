/**
 * `openclaw/plugin-sdk/plugin-entry`: the entry helpers plugins wrap their definition in,
 * for plugins loaded without an OpenClaw install.
 */

/** A JSON Schema for a plugin's config, in the shape OpenClaw's entry helpers produce. */
export interface PluginConfigSchema {
  jsonSchema?: Record<string, unknown>;
  uiHints?: Record<string, unknown>;
  safeParse?: (value: unknown) => { success: boolean; data?: unknown; error?: unknown };
  [key: string]: unknown;
}

/** What `definePluginEntry` takes: a plugin definition with its `register` function. */
export interface PluginEntryDefinition {
  id: string;
  name: string;
  description?: string;
  kind?: string;
  configSchema?: PluginConfigSchema | (() => PluginConfigSchema);
  register: (api: unknown) => unknown;
  [key: string]: unknown;
}

/** The schema of a plugin that takes no config: an object with no properties. */
export function emptyPluginConfigSchema(): PluginConfigSchema {
  return { jsonSchema: { type: 'object', additionalProperties: false, properties: {} } };
}

/** Wraps a JSON Schema as a plugin config schema. */
export function buildJsonPluginConfigSchema(jsonSchema: Record<string, unknown>): PluginConfigSchema {
  return { jsonSchema };
}

/**
 * Normalises a plugin definition the way OpenClaw's helper does: `configSchema` defaults to
 * the empty schema and a lazy schema is resolved on first read.
 *
 * @example
 * export default definePluginEntry({ id: 'hello', name: 'Hello', register(api) { api.registerTool(tool); } });
 */
export function definePluginEntry(definition: PluginEntryDefinition): PluginEntryDefinition & {
  configSchema: PluginConfigSchema;
} {
  const { configSchema = emptyPluginConfigSchema, ...rest } = definition;
  let resolved: PluginConfigSchema | undefined;
  return {
    ...rest,
    get configSchema(): PluginConfigSchema {
      resolved ??= typeof configSchema === 'function' ? configSchema() : configSchema;
      return resolved;
    },
  };
}

/** Channel plugins use this helper; tools-wise it is {@link definePluginEntry}. */
export function defineChannelPluginEntry(
  definition: PluginEntryDefinition,
): PluginEntryDefinition & { configSchema: PluginConfigSchema } {
  return definePluginEntry(definition);
}
