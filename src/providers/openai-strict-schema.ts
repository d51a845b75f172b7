import { appendDescription, describeValue } from './append-description.js';
import type { LossLog } from './conversion-report.js';
import { flattenRootUnion } from './flatten-root-union.js';
import { inlineRefs } from './inline-refs.js';
import { childPointer } from './json-pointer.js';
import { mergeAllOf } from './merge-all-of.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

/**
 * String formats strict mode takes (OpenAI Structured Outputs guide, "Supported properties":
 * https://platform.openai.com/docs/guides/structured-outputs#supported-properties).
 */
export const OPENAI_STRICT_FORMATS: readonly string[] = [
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
];

/** Documented limits of one strict schema (same guide, "Limitations"). */
export const OPENAI_STRICT_LIMITS = { nesting: 10, properties: 5000, enumValues: 1000, stringChars: 120_000 };

/** Keywords that annotate only and are removed without a trace. */
const SILENT = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  'examples',
  'example',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

/** Thrown inside the converter when a construct has no strict form; caught by the entry point. */
class StrictUnsupported extends Error {}

/** The result of {@link toOpenAIStrictSchema}: a strict schema, or why there is none. */
export type OpenAIStrictResult = { schema: SchemaRecord } | { fallback: string };

function typesOf(node: SchemaRecord): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.map(String);
  if (isSchemaRecord(node.properties)) return ['object'];
  if (node.items !== undefined) return ['array'];
  return [];
}

/** Makes an optional property nullable, the strict-mode spelling of "may be left out". */
function makeNullable(schema: SchemaRecord): SchemaRecord {
  if (Array.isArray(schema.anyOf)) {
    if (schema.anyOf.some((branch) => isSchemaRecord(branch) && branch.type === 'null')) return schema;
    return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  const withEnum = (node: SchemaRecord): SchemaRecord =>
    Array.isArray(node.enum) && !node.enum.includes(null) ? { ...node, enum: [...node.enum, null] } : node;
  if (typeof schema.type === 'string') {
    return schema.type === 'null' ? schema : withEnum({ ...schema, type: [schema.type, 'null'] });
  }
  if (Array.isArray(schema.type)) {
    return schema.type.includes('null') ? schema : withEnum({ ...schema, type: [...schema.type, 'null'] });
  }
  const { description, ...rest } = schema;
  const wrapped: SchemaRecord = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) wrapped.description = description;
  return wrapped;
}

class StrictConverter {
  properties = 0;
  enumValues = 0;
  stringChars = 0;

  constructor(private readonly log: LossLog) {}

  convert(raw: unknown, path: string, depth: number): SchemaRecord {
    if (!isSchemaRecord(raw)) throw new StrictUnsupported(`boolean schema at ${path || '/'}`);
    let node = mergeAllOf(raw, this.log, path);
    if (Array.isArray(node.oneOf)) {
      const { oneOf, ...rest } = node;
      this.log.add('oneOf → anyOf (exclusivity lost)', path);
      node = { ...rest, anyOf: [...(Array.isArray(rest.anyOf) ? rest.anyOf : []), ...oneOf] };
    }
    if (Array.isArray(node.anyOf)) {
      const { anyOf, ...rest } = node;
      const constraintOnly = anyOf.every(
        (branch) =>
          isSchemaRecord(branch) &&
          typesOf(branch).length === 0 &&
          !('enum' in branch) &&
          !('const' in branch),
      );
      if (constraintOnly && typesOf(rest).length > 0) {
        this.log.add('anyOf of constraint-only branches dropped', path);
        node = rest;
      } else {
        const out: SchemaRecord = {
          anyOf: anyOf.map((branch, index) =>
            this.convert(branch, childPointer(childPointer(path, 'anyOf'), index), depth),
          ),
        };
        let description = typeof rest.description === 'string' ? rest.description : undefined;
        if (rest.default !== undefined) {
          description = appendDescription(description, `Default: ${describeValue(rest.default)}.`);
          this.log.add('default → description', path);
        }
        if (description !== undefined) out.description = description;
        const leftover = Object.keys(rest).filter(
          (key) => key !== 'description' && key !== 'title' && key !== 'default' && !SILENT.has(key),
        );
        if (leftover.length > 0) this.log.add(`keywords beside anyOf dropped (${leftover.join(', ')})`, path);
        return out;
      }
    }
    const types = typesOf(node);
    const concrete = types.filter((type) => type !== 'null');
    if (concrete.length > 1) {
      // Several types: one anyOf branch per type, each with the keywords that apply to it.
      const { description, type: _type, ...rest } = node;
      const branches = concrete.map((type) => this.convertTyped({ ...rest, type }, type, path, depth));
      if (types.includes('null')) branches.push({ type: 'null' });
      const out: SchemaRecord = { anyOf: branches };
      if (typeof description === 'string') out.description = description;
      return out;
    }
    if (
      concrete.length === 0 &&
      !Array.isArray(node.enum) &&
      node.const === undefined &&
      !types.includes('null')
    ) {
      throw new StrictUnsupported(`unconstrained value (no type) at ${path || '/'}`);
    }
    const converted = this.convertTyped(node, concrete[0], path, depth);
    if (types.includes('null') && concrete.length === 1) {
      converted.type = [concrete[0], 'null'];
      // An enum is checked on its own: null has to be one of its values too.
      if (Array.isArray(converted.enum) && !converted.enum.includes(null))
        converted.enum = [...converted.enum, null];
    }
    return converted;
  }

  private convertTyped(
    node: SchemaRecord,
    type: string | undefined,
    path: string,
    depth: number,
  ): SchemaRecord {
    const out: SchemaRecord = {};
    let description = typeof node.description === 'string' ? node.description : undefined;
    const note = (text: string, construct: string): void => {
      description = appendDescription(description, text);
      this.log.add(construct, path);
    };
    for (const [keyword, value] of Object.entries(node)) {
      switch (keyword) {
        case 'type':
        case 'title':
          out[keyword] = value;
          break;
        case 'description':
          break;
        case 'enum':
          if (Array.isArray(value)) {
            this.enumValues += value.length;
            for (const item of value) if (typeof item === 'string') this.stringChars += item.length;
          }
          out.enum = value;
          break;
        case 'const':
          this.enumValues += 1;
          out.enum = [value];
          break;
        case 'default':
          note(`Default: ${describeValue(value)}.`, 'default → description');
          break;
        case 'format':
          if (typeof value === 'string' && OPENAI_STRICT_FORMATS.includes(value)) out.format = value;
          else note(`Format: ${String(value)}.`, `format ${String(value)} → description`);
          break;
        case 'pattern':
        case 'minimum':
        case 'maximum':
        case 'multipleOf':
        case 'minItems':
        case 'maxItems':
          out[keyword] = value;
          break;
        case 'exclusiveMinimum':
        case 'exclusiveMaximum': {
          const bound = keyword === 'exclusiveMinimum' ? 'minimum' : 'maximum';
          // Draft 4 spelled these as booleans beside minimum/maximum.
          if (typeof value === 'number') out[keyword] = value;
          else if (value === true && typeof node[bound] === 'number') out[keyword] = node[bound];
          break;
        }
        case 'minLength':
        case 'maxLength':
          note(
            `${keyword === 'minLength' ? 'At least' : 'At most'} ${String(value)} characters.`,
            `${keyword} → description`,
          );
          break;
        case 'uniqueItems':
          if (value === true) note('Items must be unique.', 'uniqueItems → description');
          break;
        case 'properties':
        case 'required':
        case 'additionalProperties':
        case 'items':
        case 'prefixItems':
          break;
        default:
          if (!SILENT.has(keyword) && !keyword.startsWith('x-')) this.log.add(`${keyword} dropped`, path);
      }
    }
    // Draft 4 boolean exclusive bounds replaced their inclusive partner.
    if (node.exclusiveMinimum === true) delete out.minimum;
    if (node.exclusiveMaximum === true) delete out.maximum;
    if (type === 'object') this.convertObject(node, out, path, depth + 1);
    if (type === 'array') this.convertArray(node, out, path, depth);
    if (description !== undefined) out.description = description;
    return out;
  }

  private convertObject(node: SchemaRecord, out: SchemaRecord, path: string, depth: number): void {
    if (depth > OPENAI_STRICT_LIMITS.nesting)
      throw new StrictUnsupported(`more than ${OPENAI_STRICT_LIMITS.nesting} levels of nesting`);
    if (node.patternProperties !== undefined)
      throw new StrictUnsupported(`patternProperties at ${path || '/'}`);
    const properties = isSchemaRecord(node.properties) ? node.properties : {};
    const names = Object.keys(properties);
    const additional = node.additionalProperties;
    const openMap = additional === true || isSchemaRecord(additional);
    // A nested object without properties or a map is free-form; at the top it means "no arguments".
    if (names.length === 0 && (openMap || (additional === undefined && depth > 1))) {
      throw new StrictUnsupported(`free-form object at ${path || '/'}`);
    }
    if (names.length > 0 && additional !== undefined && additional !== false) {
      this.log.add('additionalProperties closed (extra keys no longer accepted)', path);
    }
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    for (const name of required) {
      if (!(name in properties))
        throw new StrictUnsupported(`required "${name}" without a schema at ${path || '/'}`);
    }
    const converted: SchemaRecord = {};
    for (const name of names) {
      this.properties += 1;
      this.stringChars += name.length;
      const child = this.convert(
        properties[name],
        childPointer(childPointer(path, 'properties'), name),
        depth,
      );
      converted[name] = required.has(name) ? child : makeNullable(child);
    }
    out.properties = converted;
    out.required = names;
    out.additionalProperties = false;
  }

  private convertArray(node: SchemaRecord, out: SchemaRecord, path: string, depth: number): void {
    if (Array.isArray(node.items) || node.prefixItems !== undefined)
      throw new StrictUnsupported(`tuple array at ${path || '/'}`);
    if (node.items === undefined || node.items === true)
      throw new StrictUnsupported(`array without items at ${path || '/'}`);
    out.items = this.convert(node.items, childPointer(path, 'items'), depth);
  }
}

/**
 * Rewrites a tool schema for OpenAI strict mode (Structured Outputs, "Supported schemas"):
 * every object gets `additionalProperties: false` and lists all its properties in `required`,
 * optional properties become nullable (`type: [t, "null"]`, or `anyOf` with `null`), `$ref` is
 * inlined, `oneOf` → `anyOf`, `allOf` merged, and keywords strict mode rejects (`default`,
 * `minLength`/`maxLength` — openai/openai-node#1988 — plus the list in openai-node's
 * `lib/transform.ts`) are dropped, their meaning moved into the description where it has one.
 * Constructs with no strict form return `{ fallback }`: a recursive `$ref`, a free-form object
 * or map (`additionalProperties` without `properties`), an untyped value, an array without
 * `items`, a tuple, `patternProperties`, a required key without a schema, or the documented
 * size limits (10 levels, 5000 properties, 1000 enum values, 120 000 characters).
 */
export function toOpenAIStrictSchema(schema: SchemaRecord, log: LossLog): OpenAIStrictResult {
  const { schema: inlined, cycles } = inlineRefs(schema, log);
  if (cycles > 0) return { fallback: 'recursive $ref' };
  const converter = new StrictConverter(log);
  try {
    const root = converter.convert({ ...flattenRootUnion(inlined, log), type: 'object' }, '', 0);
    if (converter.properties > OPENAI_STRICT_LIMITS.properties)
      return { fallback: 'more than 5000 properties' };
    if (converter.enumValues > OPENAI_STRICT_LIMITS.enumValues)
      return { fallback: 'more than 1000 enum values' };
    if (converter.stringChars > OPENAI_STRICT_LIMITS.stringChars)
      return { fallback: 'names and enum values over 120000 characters' };
    return { schema: root };
  } catch (error) {
    if (error instanceof StrictUnsupported) return { fallback: error.message };
    throw error;
  }
}
