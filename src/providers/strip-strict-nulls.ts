import { resolveLocalRef } from './json-pointer.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

function deref(node: unknown, root: SchemaRecord): unknown {
  let current = node;
  for (let hops = 0; hops < 16 && isSchemaRecord(current) && typeof current.$ref === 'string'; hops++) {
    current = resolveLocalRef(root, current.$ref);
  }
  return current;
}

function allowsNull(node: unknown, root: SchemaRecord): boolean {
  const schema = deref(node, root);
  if (!isSchemaRecord(schema)) return schema !== false;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if (schema.const !== undefined) return schema.const === null;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) return branches.some((branch) => allowsNull(branch, root));
  }
  return schema.type === undefined && schema.properties === undefined && schema.items === undefined;
}

function strip(value: unknown, node: unknown, root: SchemaRecord): unknown {
  const schema = deref(node, root);
  if (!isSchemaRecord(schema)) return value;
  if (Array.isArray(value)) return value.map((item) => strip(item, schema.items, root));
  if (typeof value !== 'object' || value === null || !isSchemaRecord(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schema.properties[key];
    if (child === null && !required.has(key) && childSchema !== undefined && !allowsNull(childSchema, root))
      continue;
    out[key] = childSchema === undefined ? child : strip(child, childSchema, root);
  }
  return out;
}

/**
 * Undoes what OpenAI strict mode adds: strict schemas make every optional property required
 * but nullable, so the model sends `null` for "not given". This removes each `null` whose
 * property was optional and did not accept `null` in the original `schema`, at every level,
 * so the tool gets the arguments its own schema expects.
 */
export function stripStrictNulls(
  args: Record<string, unknown>,
  schema: SchemaRecord,
): Record<string, unknown> {
  return strip(args, schema, schema) as Record<string, unknown>;
}
