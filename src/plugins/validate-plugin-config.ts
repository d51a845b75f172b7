import { McpToolsError } from '../errors/mcp-tools-error.js';
import { type AjvError, createAjv, type DraftAjv } from '../json/load-ajv.js';

let ajv: DraftAjv | undefined;

function engine(): DraftAjv {
  // `useDefaults` fills in the manifest's defaults, as OpenClaw does before `register`.
  ajv ??= createAjv({ useDefaults: true, allErrors: true, strict: false, validateSchema: false });
  return ajv;
}

/** The config field an ajv error is about, as a dotted path (`port`, `routing.model`). */
function fieldOf(error: AjvError): string {
  const segments = error.instancePath.split('/').filter(Boolean);
  const params = error.params as Record<string, unknown>;
  const child = params.missingProperty ?? params.additionalProperty ?? params.propertyName;
  if (typeof child === 'string') segments.push(child);
  return segments.join('.') || '(root)';
}

/**
 * Validates a plugin's config against its manifest `configSchema`, applying defaults, and
 * returns the resulting object (always an object; the input is never mutated). Throws
 * `CONFIG_INVALID` naming the plugin and the first bad field; config values never appear.
 */
export function validatePluginConfig(
  pluginId: string,
  schema: Record<string, unknown> | undefined,
  value: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const config = structuredClone(value ?? {});
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new McpToolsError('CONFIG_INVALID', `Plugin "${pluginId}" config must be an object`, {
      data: { plugin: pluginId },
    });
  }
  if (!schema) return config;
  let validate: ReturnType<DraftAjv['compile']>;
  try {
    validate = engine().compile(schema);
  } catch (error) {
    throw new McpToolsError(
      'CONFIG_INVALID',
      `Plugin "${pluginId}" has a configSchema that does not compile`,
      {
        cause: error,
        data: { plugin: pluginId },
      },
    );
  }
  if (validate(config)) return config;
  const errors = validate.errors ?? [];
  const first = errors[0];
  const field = first ? fieldOf(first) : '(root)';
  const reasons = errors.map((error) => `${fieldOf(error)}: ${error.message ?? 'is invalid'}`).join('; ');
  throw new McpToolsError(
    'CONFIG_INVALID',
    `Plugin "${pluginId}" config is invalid at "${field}": ${reasons}`,
    {
      data: { plugin: pluginId, field },
    },
  );
}
