import type { GeminiFunctionDeclaration } from '../gemini-tools.js';
import { childPointer } from '../json-pointer.js';
import { ARGUMENT_NAME_PATTERNS } from '../provider-argument-names.js';
import { GEMINI_NAME_PATTERN } from '../provider-tool-names.js';
import { isSchemaRecord } from '../schema-record.js';
import { SchemaProblems } from './schema-problems.js';

/** The fields of the Gemini API `Schema` message (`@google/genai` `Schema`). */
const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);
/** Formats the Gemini API reference lists per type. */
const FORMATS: Record<string, readonly string[]> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};
const INT64_FIELDS = ['maxItems', 'minItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'];

function walk(node: unknown, path: string, problems: SchemaProblems): void {
  if (!isSchemaRecord(node)) {
    problems.add(path, 'a schema must be an object');
    return;
  }
  for (const key of Object.keys(node))
    if (!SCHEMA_FIELDS.has(key)) problems.add(path, `unknown field ${key}`);
  const type = node.type;
  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type)))
    problems.add(path, `invalid type ${JSON.stringify(type)}`);
  if (type !== undefined && node.anyOf !== undefined)
    problems.add(path, 'type and anyOf cannot be both populated');
  if (type === undefined && !Array.isArray(node.anyOf)) problems.add(path, 'needs a type or anyOf');
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0)
      problems.add(path, 'anyOf must be a non-empty list');
    else
      node.anyOf.forEach((branch, index) => {
        walk(branch, childPointer(childPointer(path, 'anyOf'), index), problems);
      });
  }
  if (node.enum !== undefined) {
    if (type !== 'STRING') problems.add(path, 'enum is only allowed on STRING');
    if (!Array.isArray(node.enum) || node.enum.some((value) => typeof value !== 'string'))
      problems.add(path, 'enum values must be strings');
  }
  if (
    typeof node.format === 'string' &&
    !(typeof type === 'string' && FORMATS[type]?.includes(node.format))
  ) {
    problems.add(path, `format ${node.format} is not supported for ${String(type)}`);
  }
  for (const field of INT64_FIELDS) {
    if (node[field] !== undefined && !(typeof node[field] === 'string' && /^\d+$/.test(node[field]))) {
      problems.add(path, `${field} must be an int64 string`);
    }
  }
  for (const field of ['minimum', 'maximum']) {
    if (node[field] !== undefined && typeof node[field] !== 'number')
      problems.add(path, `${field} must be a number`);
  }
  if (node.nullable !== undefined && typeof node.nullable !== 'boolean')
    problems.add(path, 'nullable must be a boolean');
  if (node.description !== undefined && typeof node.description !== 'string')
    problems.add(path, 'description must be a string');
  if (type === 'ARRAY') {
    if (node.items === undefined) problems.add(path, 'ARRAY needs items');
    else walk(node.items, childPointer(path, 'items'), problems);
  } else if (node.items !== undefined) problems.add(path, 'items is only allowed on ARRAY');
  if (node.properties !== undefined) {
    if (type !== 'OBJECT') problems.add(path, 'properties is only allowed on OBJECT');
    if (!isSchemaRecord(node.properties) || Object.keys(node.properties).length === 0) {
      problems.add(path, 'properties: should be non-empty for OBJECT type');
    } else {
      for (const [name, child] of Object.entries(node.properties))
        walk(child, childPointer(childPointer(path, 'properties'), name), problems);
    }
  }
  if (node.required !== undefined) {
    const names = isSchemaRecord(node.properties) ? Object.keys(node.properties) : [];
    if (!Array.isArray(node.required)) problems.add(path, 'required must be a list');
    else
      for (const name of node.required)
        if (!names.includes(String(name))) problems.add(path, `required "${String(name)}" is not a property`);
  }
}

/**
 * Problems the Gemini API would reject `declaration` for: the function name rule (letter or
 * underscore first; letters, digits, `_ . : -`; at most 64), top-level parameter names
 * (letter or underscore first; letters, digits, `_`), and the `Schema` subset: known fields
 * only, valid upper-case types, no `type` beside `anyOf`, `enum` of strings on STRING only,
 * documented formats, `items` on every ARRAY, no empty `properties`, `required` naming existing
 * properties, int64 bounds as strings, no `$ref`. Empty when acceptable.
 */
export function validateGeminiDeclaration(declaration: GeminiFunctionDeclaration): string[] {
  const problems = new SchemaProblems();
  if (!GEMINI_NAME_PATTERN.test(declaration.name))
    problems.add('', `name ${JSON.stringify(declaration.name)} breaks the Gemini rule`);
  const parameters = declaration.parameters;
  if (parameters === undefined) return problems.list;
  if (!isSchemaRecord(parameters) || parameters.type !== 'OBJECT')
    problems.add('', 'parameters must have type OBJECT');
  if (isSchemaRecord(parameters) && isSchemaRecord(parameters.properties)) {
    for (const name of Object.keys(parameters.properties)) {
      if (!ARGUMENT_NAME_PATTERNS.gemini?.test(name))
        problems.add('/properties', `parameter name ${JSON.stringify(name)} breaks the Gemini rule`);
    }
  }
  walk(parameters, '', problems);
  return problems.list;
}
