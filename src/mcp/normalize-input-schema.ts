import { isPlainObject } from '../json/is-plain-object.js';
import type { JsonSchemaObject } from '../tool/tool.js';

/** Keywords worth keeping when a non-object root has to be replaced. */
const keptKeywords = ['$schema', '$id', '$defs', 'definitions', 'description', 'title'] as const;

function allowsObject(type: unknown): boolean {
  return type === 'object' || (Array.isArray(type) && type.includes('object'));
}

/**
 * Turns an MCP `inputSchema` (any JSON Schema) into tool `parameters` whose top
 * level is `type: "object"`. Object roots are kept (copied, never mutated); roots without a
 * `type` keep their combinators under `type: "object"`; any other root is replaced by an
 * empty object schema that keeps `$defs`, `definitions`, `$schema` and the description.
 */
export function normalizeInputSchema(schema: unknown): JsonSchemaObject {
  if (!isPlainObject(schema)) return { type: 'object', properties: {} };
  if (schema.type === 'object') return { ...schema, type: 'object' };
  if (
    allowsObject(schema.type) ||
    (schema.type === undefined && !('const' in schema) && !('enum' in schema))
  ) {
    return { ...schema, type: 'object' };
  }
  const replaced: JsonSchemaObject = { type: 'object', properties: {} };
  for (const keyword of keptKeywords) {
    if (schema[keyword] !== undefined) replaced[keyword] = schema[keyword];
  }
  return replaced;
}
