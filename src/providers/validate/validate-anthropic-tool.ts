import { createAjv, type DraftAjv } from '../../json/load-ajv.js';
import { TOOL_NAME_PATTERN } from '../../registry/tool-name.js';
import type { AnthropicTool } from '../anthropic-tools.js';
import { ARGUMENT_NAME_PATTERNS } from '../provider-argument-names.js';
import { isSchemaRecord } from '../schema-record.js';
import { SchemaProblems } from './schema-problems.js';

let metaValidator: DraftAjv | undefined;

/**
 * Problems the Messages API would reject `tool` for: the name (`^[a-zA-Z0-9_-]{1,64}$`), an
 * `input_schema` of `type: "object"` without `oneOf`/`anyOf`/`allOf` at its top, top-level
 * property keys matching `^[a-zA-Z0-9_.-]{1,64}$`, `required` as a list of names, and a schema
 * that is valid JSON Schema (checked against the meta-schema with Ajv). Empty when acceptable.
 */
export function validateAnthropicTool(tool: AnthropicTool): string[] {
  const problems = new SchemaProblems();
  if (!TOOL_NAME_PATTERN.test(tool.name))
    problems.add('', `name ${JSON.stringify(tool.name)} breaks ^[a-zA-Z0-9_-]{1,64}$`);
  if (tool.description !== undefined && typeof tool.description !== 'string')
    problems.add('', 'description must be a string');
  const schema = tool.input_schema;
  if (!isSchemaRecord(schema) || schema.type !== 'object') {
    problems.add('', 'input_schema must have type "object"');
    return problems.list;
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    if (keyword in schema) problems.add('', `input_schema does not support ${keyword} at the top level`);
  }
  if (schema.properties !== undefined && schema.properties !== null) {
    if (!isSchemaRecord(schema.properties)) problems.add('/properties', 'must be an object');
    else {
      for (const key of Object.keys(schema.properties)) {
        if (!ARGUMENT_NAME_PATTERNS.anthropic?.test(key))
          problems.add('/properties', `key ${JSON.stringify(key)} breaks ^[a-zA-Z0-9_.-]{1,64}$`);
      }
    }
  }
  if (
    schema.required !== undefined &&
    (!Array.isArray(schema.required) || schema.required.some((name) => typeof name !== 'string'))
  ) {
    problems.add('/required', 'must be a list of names');
  }
  metaValidator ??= createAjv({ strict: false, validateSchema: true, logger: false }, false);
  const { $schema: _ignored, ...body } = schema;
  if (!metaValidator.validateSchema(body)) {
    for (const error of metaValidator.errors ?? [])
      problems.add(error.instancePath, `invalid JSON Schema: ${error.message ?? ''}`);
  }
  return problems.list;
}
