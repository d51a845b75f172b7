import { readFileSync } from 'node:fs';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { isPlainObject } from '../json/is-plain-object.js';
import type { JsonSchemaObject } from '../tool/tool.js';

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

function invalid(message: string): McpToolsError {
  return new McpToolsError('INVALID_ARGUMENTS', message);
}

/** The JSON types a property schema allows (`type`, `type: [...]`, `anyOf`/`oneOf` branches, `enum`). */
function allowedTypes(schema: unknown): Set<JsonType> {
  const types = new Set<JsonType>();
  if (!isPlainObject(schema)) return types;
  const type = schema.type;
  for (const entry of Array.isArray(type) ? type : type === undefined ? [] : [type])
    if (typeof entry === 'string') types.add(entry as JsonType);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const branch of branches) for (const t of allowedTypes(branch)) types.add(t);
  }
  if (types.size === 0 && Array.isArray(schema.enum))
    for (const value of schema.enum) types.add(value === null ? 'null' : (typeof value as JsonType));
  return types;
}

function parseJson(key: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid(`${key}: not valid JSON (${(error as Error).message})`);
  }
}

/** One `key=value` value, typed by the property's schema; untyped values are JSON when they parse. */
function coerce(key: string, text: string, schema: unknown): unknown {
  const types = allowedTypes(schema);
  if (text === 'null' && types.has('null')) return null;
  const onlyString = types.size > 0 && [...types].every((type) => type === 'string' || type === 'null');
  if (onlyString) return text;
  if (types.has('integer') || types.has('number')) {
    const number = text.trim() === '' ? Number.NaN : Number(text);
    if (Number.isFinite(number) && (types.has('number') || Number.isInteger(number))) return number;
    if (types.size === 1 || (types.size === 2 && types.has('null')))
      throw invalid(`${key}: expected ${types.has('integer') ? 'an integer' : 'a number'}, got "${text}"`);
  }
  if (types.has('boolean')) {
    if (text === 'true' || text === 'false') return text === 'true';
    if (types.size === 1) throw invalid(`${key}: expected true or false, got "${text}"`);
  }
  if (types.has('object') || types.has('array')) {
    const looksJson = /^\s*[[{]/.test(text);
    if (looksJson || !types.has('string')) {
      const value = parseJson(key, text);
      const kind = Array.isArray(value) ? 'array' : isPlainObject(value) ? 'object' : undefined;
      if (kind && types.has(kind)) return value;
      if (!types.has('string'))
        throw invalid(
          `${key}: expected JSON ${[...types].filter((t) => t === 'object' || t === 'array').join(' or ')}, got "${text}"`,
        );
    }
  }
  if (types.has('string')) return text;
  // No usable type: JSON literals (numbers, booleans, null, objects, arrays, "strings") stay typed.
  if (/^\s*(?:[[{"]|-?\d|true\s*$|false\s*$|null\s*$)/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The arguments of `mcptools call`: either one JSON object, or `key=value` pairs coerced by
 * the tool's input schema (numbers, booleans, JSON for objects and arrays; `key=@file` reads
 * the value from a file, `key=@@text` is the literal `@text`). Throws `INVALID_ARGUMENTS`.
 *
 * @example
 * parseCallArguments(['a=2', 'tags=["x"]'], { type: 'object', properties: { a: { type: 'number' }, tags: { type: 'array' } } });
 * // { a: 2, tags: ['x'] }
 */
export function parseCallArguments(inputs: string[], schema: JsonSchemaObject): Record<string, unknown> {
  if (inputs.length === 0) return {};
  const [first] = inputs;
  if (inputs.length === 1 && first !== undefined && /^\s*\{/.test(first)) {
    let value: unknown;
    try {
      value = JSON.parse(first);
    } catch (error) {
      throw invalid(`Arguments are not valid JSON: ${(error as Error).message}`);
    }
    if (!isPlainObject(value)) throw invalid('Arguments must be a JSON object, e.g. {"text":"hi"}');
    return value;
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const result: Record<string, unknown> = {};
  for (const input of inputs) {
    const equals = input.indexOf('=');
    if (equals <= 0)
      throw invalid(`Expected key=value (or one JSON object), got "${input}". Example: text=hello count=3`);
    const key = input.slice(0, equals);
    let text = input.slice(equals + 1);
    if (Object.hasOwn(result, key)) throw invalid(`${key} is given twice`);
    if (text.startsWith('@@')) text = text.slice(1);
    else if (text.startsWith('@')) text = readValueFile(key, text.slice(1));
    const value = coerce(key, text, Object.hasOwn(properties, key) ? properties[key] : undefined);
    // defineProperty: a `__proto__=…` argument becomes a plain key, never the object's prototype.
    Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

function readValueFile(key: string, path: string): string {
  if (path === '') throw invalid(`${key}=@ needs a file path, e.g. ${key}=@notes.txt`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw invalid(
      `${key}=@${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}
