import { normalizeJsonSchema } from './normalize-json-schema.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

/**
 * A tool schema as OpenAI's non-strict function calling takes it: the JSON Schema itself
 * (`$ref`/`$defs` included) through {@link normalizeJsonSchema}, plus the top-level
 * `properties` OpenAI wants even for a tool without arguments ("object schema missing properties").
 */
export function toOpenAIParameters(schema: SchemaRecord): SchemaRecord {
  const out = normalizeJsonSchema(schema);
  if (!isSchemaRecord(out.properties)) out.properties = {};
  out.type = 'object';
  return out;
}
