import { LIST_SCHEMA_KEYWORDS, MAP_SCHEMA_KEYWORDS, SINGLE_SCHEMA_KEYWORDS } from './schema-keywords.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

function normalize(node: unknown): unknown {
  if (!isSchemaRecord(node)) return node;
  const out: SchemaRecord = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (LIST_SCHEMA_KEYWORDS.includes(keyword) && Array.isArray(value)) out[keyword] = value.map(normalize);
    else if (MAP_SCHEMA_KEYWORDS.includes(keyword) && isSchemaRecord(value)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, normalize(child)]),
      );
    } else if (SINGLE_SCHEMA_KEYWORDS.includes(keyword)) out[keyword] = normalize(value);
    else out[keyword] = value;
  }
  // Draft 4 wrote exclusive bounds as booleans beside minimum/maximum; later drafts (and the
  // providers' validators) want the number itself.
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[exclusive] === true && typeof out[inclusive] === 'number') {
      out[exclusive] = out[inclusive];
      delete out[inclusive];
    } else if (typeof out[exclusive] === 'boolean') delete out[exclusive];
  }
  const isArray = out.type === 'array' || (Array.isArray(out.type) && out.type.includes('array'));
  // OpenAI answers 400 "array schema missing items" even outside strict mode; `{}` means "any", as before.
  if (isArray && out.items === undefined && out.prefixItems === undefined) out.items = {};
  return out;
}

/**
 * The same schema in the form providers that take full JSON Schema (OpenAI non-strict,
 * Anthropic) validate without complaint, with no change of meaning: draft-4 boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become the numeric form and arrays without `items`
 * get `items: {}`.
 */
export function normalizeJsonSchema(schema: SchemaRecord): SchemaRecord {
  return normalize(schema) as SchemaRecord;
}
