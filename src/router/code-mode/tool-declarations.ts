import type { Tool } from '../../tool/tool.js';

type Schema = Record<string, unknown>;

/** How deep a schema is written out before `unknown` stands for the rest. */
const MAX_DEPTH = 6;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The first sentence of `text`, on one line, at most 160 characters. */
function firstSentence(text: unknown): string {
  if (typeof text !== 'string') return '';
  const line = text.replace(/\s+/g, ' ').trim();
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? line.slice(0, end + 1) : line;
  return (sentence.length > 160 ? `${sentence.slice(0, 159)}…` : sentence).replaceAll('*/', '* /');
}

function propertyKey(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
    ? JSON.stringify(value)
    : 'unknown';
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.includes('unknown') ? 'unknown' : unique.join(' | ');
}

function objectType(schema: Schema, depth: number, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const inner = `${indent}  `;
  const members: string[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const note = firstSentence(property?.description);
    if (note !== '') members.push(`${inner}/** ${note} */`);
    members.push(
      `${inner}${propertyKey(key)}${required.has(key) ? '' : '?'}: ${typeOf(property, depth + 1, inner)};`,
    );
  }
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false && members.length === 0) {
    const value = extra === true ? 'unknown' : typeOf(extra as Schema, depth + 1, inner);
    return `Record<string, ${value}>`;
  }
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
}

/** The TypeScript type a JSON Schema describes, as far as TypeScript can say it. */
export function typeOf(schema: Schema | undefined, depth = 0, indent = ''): string {
  if (schema === undefined || schema === null || typeof schema !== 'object' || depth > MAX_DEPTH)
    return 'unknown';
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  if ('const' in schema) return literal(schema.const);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = schema[keyword];
    if (Array.isArray(options) && options.length > 0)
      return union(options.map((option) => typeOf(option as Schema, depth + 1, indent)));
  }
  const type = schema.type;
  if (Array.isArray(type)) return union(type.map((one) => typeOf({ ...schema, type: one }, depth, indent)));
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = typeOf(schema.items as Schema | undefined, depth + 1, indent);
      return /[|&]/.test(items) && !items.startsWith('{') ? `(${items})[]` : `${items}[]`;
    }
    case 'object':
      return objectType(schema, depth, indent);
    default:
      return schema.properties !== undefined ? objectType(schema, depth, indent) : 'unknown';
  }
}

/**
 * TypeScript declarations of `tools` as a script calls them: one method of `tools` per tool,
 * under its served name, with its arguments (from its input schema) and its result (from its
 * `outputSchema` where it declares one; `unknown` otherwise: its text, parsed when JSON).
 *
 * @example
 * toolDeclarations([addTool]); // declare const tools: { "echo__add"(args: { a: number; b: number }): Promise<{ sum: number }>; };
 */
export function toolDeclarations(tools: readonly Tool[]): string {
  const members: string[] = [];
  for (const tool of tools) {
    const note = firstSentence(tool.description);
    if (note !== '') members.push(`  /** ${note} */`);
    const args = typeOf(tool.parameters, 0, '  ');
    const result = tool.outputSchema === undefined ? 'unknown' : typeOf(tool.outputSchema, 0, '  ');
    const optional = (tool.parameters.required ?? []).length === 0 ? '?' : '';
    members.push(`  ${JSON.stringify(tool.name)}(args${optional}: ${args}): Promise<${result}>;`);
  }
  return `declare const tools: {\n${members.join('\n')}\n};`;
}
