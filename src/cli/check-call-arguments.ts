import { closestKey } from '../config/closest-key.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { argumentIssues } from '../tool/argument-validator.js';
import type { Tool } from '../tool/tool.js';

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A property's schema in a few words: `a string`, `an array of objects`, `one of "a", "b"`. */
export function describeSchema(schema: unknown): string {
  if (!isSchema(schema)) return 'any value';
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  if (type === 'array') return `an array of ${plural(describeSchema(schema.items))}`;
  if (type === 'object' && isSchema(schema.properties)) {
    const keys = Object.keys(schema.properties);
    return keys.length === 0 ? 'an object' : `an object with ${keys.join(', ')}`;
  }
  if (typeof type !== 'string') return 'any value';
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

function plural(description: string): string {
  if (description === 'any value') return 'values';
  return description.replace(/^an? (\w+)/, (_whole, noun: string) => `${noun}s`);
}

/**
 * Checks the arguments typed on the command line against `tool`'s schema before the call, and
 * throws `INVALID_ARGUMENTS` (exit 2) saying, with the name the user typed, each field at fault
 * and the shape it expects, each unknown key that looks like a typo of a parameter ("did you
 * mean"), and the command that prints the whole schema. An unknown key that resembles no
 * parameter is sent as typed (many schemas allow extra keys); `warn` is told about it.
 */
export function checkCallArguments(
  typedName: string,
  tool: Tool,
  params: Record<string, unknown>,
  warn: (line: string) => void,
): void {
  const schema = tool.parameters as Schema;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const known = Object.keys(properties);
  const problems: string[] = [];
  for (const key of Object.keys(params)) {
    if (Object.hasOwn(properties, key) || known.length === 0) continue;
    const near = closestKey(key, known);
    if (near !== undefined) problems.push(`"${key}" is not a parameter: did you mean "${near}"?`);
    else if (schema.additionalProperties !== false)
      warn(`${typedName}: "${key}" is not among its parameters (${known.join(', ')}); sent as typed`);
  }
  for (const issue of argumentIssues(schema, params) ?? []) {
    const top = issue.field.split('.')[0] ?? issue.field;
    if (issue.keyword === 'additionalProperties' && problems.some((line) => line.startsWith(`"${top}"`)))
      continue;
    const expects = Object.hasOwn(properties, top) ? ` (${describeSchema(properties[top])})` : '';
    const reason =
      issue.keyword === 'required'
        ? 'is required'
        : issue.keyword === 'additionalProperties'
          ? `is not a parameter (${known.join(', ')})`
          : issue.message;
    problems.push(`"${issue.field}" ${reason}${expects}`);
  }
  if (problems.length === 0) return;
  const server = tool.server === undefined ? '' : ` --server ${tool.server}`;
  throw new McpToolsError(
    'INVALID_ARGUMENTS',
    `${typedName}: ${problems.join('; ')}. \`mcptools tools${server} --schemas\` prints its schema.`,
    { recoverable: true, data: { tool: tool.name } },
  );
}
