import { TOOL_NAME_PATTERN } from '../../registry/tool-name.js';
import { childPointer, resolveLocalRef } from '../json-pointer.js';
import { OPENAI_STRICT_FORMATS, OPENAI_STRICT_LIMITS } from '../openai-strict-schema.js';
import type { OpenAIChatTool, OpenAIResponsesTool } from '../openai-tools.js';
import { isSchemaRecord, type SchemaRecord } from '../schema-record.js';
import { SchemaProblems } from './schema-problems.js';

/**
 * Keywords strict mode rejects: openai-node `lib/transform.ts` `JSON_SCHEMA_UNSUPPORTED_SCHEMA_KEYWORDS`,
 * plus `default`, `minLength` and `maxLength` (openai/openai-node#1988).
 */
const STRICT_UNSUPPORTED = new Set([
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
  'allOf',
  'contains',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'else',
  'if',
  'maxContains',
  'maxProperties',
  'minContains',
  'minProperties',
  'not',
  'patternProperties',
  'prefixItems',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
  'uniqueItems',
  'default',
  'minLength',
  'maxLength',
  'oneOf',
]);
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

function walkStrict(
  node: unknown,
  path: string,
  root: SchemaRecord,
  depth: number,
  problems: SchemaProblems,
): void {
  if (!isSchemaRecord(node)) {
    problems.add(path, 'strict schemas must be objects, not booleans');
    return;
  }
  if (typeof node.$ref === 'string') {
    if (resolveLocalRef(root, node.$ref) === undefined) problems.add(path, `unresolvable $ref ${node.$ref}`);
    return;
  }
  for (const keyword of Object.keys(node)) {
    if (STRICT_UNSUPPORTED.has(keyword))
      problems.add(path, `keyword ${keyword} is not supported in strict mode`);
  }
  if (typeof node.format === 'string' && !OPENAI_STRICT_FORMATS.includes(node.format)) {
    problems.add(path, `format ${node.format} is not supported in strict mode`);
  }
  const types =
    typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type.map(String) : [];
  for (const type of types) if (!JSON_TYPES.has(type)) problems.add(path, `unknown type ${type}`);
  if (types.length === 0 && !Array.isArray(node.anyOf) && !Array.isArray(node.enum)) {
    problems.add(path, 'every strict schema needs a type, anyOf or enum');
  }
  if (Array.isArray(node.anyOf)) {
    node.anyOf.forEach((branch, index) => {
      walkStrict(branch, childPointer(childPointer(path, 'anyOf'), index), root, depth, problems);
    });
  }
  if (types.includes('object')) {
    if (depth + 1 > OPENAI_STRICT_LIMITS.nesting) problems.add(path, 'more than 10 levels of nesting');
    if (node.additionalProperties !== false) problems.add(path, 'objects need additionalProperties: false');
    if (!isSchemaRecord(node.properties)) problems.add(path, 'objects need properties');
    const names = isSchemaRecord(node.properties) ? Object.keys(node.properties) : [];
    const required = Array.isArray(node.required) ? node.required.map(String) : [];
    if (names.length !== required.length || names.some((name) => !required.includes(name))) {
      problems.add(path, 'every property must be listed in required');
    }
    for (const name of names) {
      walkStrict(
        (node.properties as SchemaRecord)[name],
        childPointer(childPointer(path, 'properties'), name),
        root,
        depth + 1,
        problems,
      );
    }
  }
  if (types.includes('array')) {
    if (node.items === undefined) problems.add(path, 'arrays need items');
    else walkStrict(node.items, childPointer(path, 'items'), root, depth, problems);
  }
  for (const keyword of ['$defs', 'definitions']) {
    const defs = node[keyword];
    if (isSchemaRecord(defs)) {
      for (const [name, def] of Object.entries(defs))
        walkStrict(def, childPointer(childPointer(path, keyword), name), root, depth, problems);
    }
  }
}

function walkLoose(node: unknown, path: string, problems: SchemaProblems): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      walkLoose(item, childPointer(path, index), problems);
    });
    return;
  }
  if (!isSchemaRecord(node)) return;
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (isArray && node.items === undefined && node.prefixItems === undefined)
    problems.add(path, 'array schema missing items');
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'enum' || keyword === 'const' || keyword === 'default' || keyword === 'examples')
      continue;
    if (typeof value === 'object' && value !== null) walkLoose(value, childPointer(path, keyword), problems);
  }
}

/**
 * Problems OpenAI would reject `tool` for, from its documented rules: the function name
 * (`^[a-zA-Z0-9_-]{1,64}$`), a top-level object schema with `properties`, `items` on every
 * array and, for `strict: true`, the Structured Outputs subset (`additionalProperties: false`
 * and every property required on every object, supported keywords and formats only, no root
 * `anyOf`, at most 10 levels). Empty when the tool is acceptable.
 */
export function validateOpenAITool(tool: OpenAIChatTool | OpenAIResponsesTool): string[] {
  const problems = new SchemaProblems();
  const definition = 'function' in tool ? tool.function : tool;
  if (tool.type !== 'function') problems.add('', 'type must be "function"');
  if (!TOOL_NAME_PATTERN.test(definition.name))
    problems.add('', `name ${JSON.stringify(definition.name)} breaks ^[a-zA-Z0-9_-]{1,64}$`);
  const schema = definition.parameters;
  if (!isSchemaRecord(schema) || schema.type !== 'object')
    problems.add('', 'parameters must be an object schema');
  else {
    if (!isSchemaRecord(schema.properties)) problems.add('', 'object schema missing properties');
    walkLoose(schema, '', problems);
    if (definition.strict === true) {
      if (schema.anyOf !== undefined) problems.add('', 'the root of a strict schema must not be anyOf');
      walkStrict(schema, '', schema, 0, problems);
    }
  }
  return problems.list;
}
