import { isPlainObject } from '../json/is-plain-object.js';
import type { JsonSchemaObject } from '../tool/tool.js';

function plainCopy(schema: unknown): unknown {
  try {
    // TypeBox marks schemas with symbol keys (`Kind`, `Optional`); JSON drops them, and any
    // functions, leaving the plain JSON Schema providers expect.
    return JSON.parse(JSON.stringify(schema ?? {}));
  } catch {
    return {};
  }
}

/** A top-level union of object schemas becomes one object: all properties, required only when every branch requires. */
function mergeObjectUnion(branches: unknown[]): JsonSchemaObject | undefined {
  const objects = branches.filter(isPlainObject);
  if (objects.length === 0 || objects.length !== branches.length) return undefined;
  if (!objects.every((branch) => branch.type === 'object' || isPlainObject(branch.properties)))
    return undefined;
  const properties: Record<string, unknown> = {};
  for (const branch of objects)
    Object.assign(properties, isPlainObject(branch.properties) ? branch.properties : {});
  const requiredSets = objects.map(
    (branch) => new Set(Array.isArray(branch.required) ? branch.required : []),
  );
  const required = [...(requiredSets[0] ?? [])].filter(
    (name): name is string => typeof name === 'string' && requiredSets.every((set) => set.has(name)),
  );
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Turns a plugin tool's `parameters` (TypeBox or plain JSON Schema) into a plain JSON Schema
 * whose top level is `type: "object"`, as OpenClaw's `AgentTool` requires. A missing schema becomes an
 * empty object schema; a top-level union of objects is merged into one object.
 */
export function toPluginJsonSchema(parameters: unknown): JsonSchemaObject {
  const copy = plainCopy(parameters);
  if (!isPlainObject(copy)) return { type: 'object', properties: {} };
  if (copy.type === 'object') return copy as JsonSchemaObject;
  const union = Array.isArray(copy.anyOf) ? copy.anyOf : Array.isArray(copy.oneOf) ? copy.oneOf : undefined;
  if (copy.type === undefined && union) {
    const merged = mergeObjectUnion(union);
    if (merged)
      return {
        ...(typeof copy.description === 'string' ? { description: copy.description } : {}),
        ...merged,
      };
  }
  if (copy.type === undefined && (isPlainObject(copy.properties) || Object.keys(copy).length === 0)) {
    return { ...copy, type: 'object', properties: isPlainObject(copy.properties) ? copy.properties : {} };
  }
  // A non-object schema (a bare string, say) cannot be a tool's arguments: wrap it as `value`.
  return { type: 'object', properties: { value: copy }, required: ['value'] };
}
