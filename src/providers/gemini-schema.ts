import { appendDescription, describeValue } from './append-description.js';
import type { LossLog } from './conversion-report.js';
import { flattenRootUnion } from './flatten-root-union.js';
import { inlineRefs } from './inline-refs.js';
import { childPointer } from './json-pointer.js';
import { mergeAllOf } from './merge-all-of.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

/** Gemini's `Type` enum, as its wire values (`@google/genai` `Type.STRING === 'STRING'`). */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT';

/**
 * The OpenAPI 3.0 subset Gemini takes in `FunctionDeclaration.parameters` (the `Schema` message
 * of the Gemini API; `@google/genai` `Schema`). Integer bounds are strings, as int64 in proto JSON.
 */
export interface GeminiSchema {
  type?: GeminiType;
  format?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  minItems?: string;
  maxItems?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minProperties?: string;
  maxProperties?: string;
  minLength?: string;
  maxLength?: string;
  pattern?: string;
  example?: unknown;
  anyOf?: GeminiSchema[];
  minimum?: number;
  maximum?: number;
}

/** Formats Gemini documents per type; any other goes into the description. */
const GEMINI_FORMATS: Record<string, readonly string[]> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

/** Keywords that only annotate; dropping them changes nothing the model must obey. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  'title',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
  'markdownDescription',
]);

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** Keywords that give a schema its shape; a branch without any of them only narrows. */
const STRUCTURAL = [
  'type',
  'properties',
  'items',
  'prefixItems',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
];

function isConstraintOnly(node: unknown): boolean {
  return isSchemaRecord(node) && STRUCTURAL.every((keyword) => !(keyword in node));
}

function isNullSchema(node: unknown): boolean {
  if (!isSchemaRecord(node)) return false;
  if (node.type === 'null') return true;
  if (node.const === null && node.type === undefined) return true;
  return Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null;
}

function inferTypes(node: SchemaRecord): JsonType[] {
  if (typeof node.type === 'string') return [node.type as JsonType];
  if (Array.isArray(node.type)) return node.type.map(String) as JsonType[];
  if (
    isSchemaRecord(node.properties) ||
    node.additionalProperties !== undefined ||
    Array.isArray(node.required)
  ) {
    return ['object'];
  }
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return ['array'];
  const literals = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : undefined;
  if (literals) {
    const kinds = new Set<string>(
      literals
        .filter((value) => value !== null)
        .map((value) => (Array.isArray(value) ? 'array' : typeof value)),
    );
    return JSON_TYPES.filter((type) => kinds.has(type));
  }
  if (
    ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((key) => key in node)
  ) {
    return ['number'];
  }
  if (['minLength', 'maxLength', 'pattern', 'format'].some((key) => key in node)) return ['string'];
  return [];
}

/** A value of any JSON type, as close as Gemini's subset allows. */
function anyValue(description: unknown): GeminiSchema {
  const schema: GeminiSchema = {
    anyOf: [
      { type: 'STRING' },
      { type: 'NUMBER' },
      { type: 'BOOLEAN' },
      { type: 'OBJECT' },
      { type: 'ARRAY', items: { type: 'STRING' } },
    ],
  };
  if (typeof description === 'string') schema.description = description;
  return schema;
}

class GeminiSchemaConverter {
  constructor(private readonly log: LossLog) {}

  convert(raw: unknown, path: string): GeminiSchema {
    if (raw === false) {
      this.log.add('false schema (no value allowed) became an optional string', path);
      return { type: 'STRING', nullable: true, description: 'Must be omitted.' };
    }
    if (!isSchemaRecord(raw)) return anyValue(undefined);
    let node = mergeAllOf(raw, this.log, path);
    let nullable = false;

    for (const unionKeyword of ['anyOf', 'oneOf'] as const) {
      const members = node[unionKeyword];
      if (!Array.isArray(members)) continue;
      const { [unionKeyword]: _union, ...rest } = node;
      const real = members.filter((member) => !isNullSchema(member));
      if (real.length < members.length) nullable = true;
      const constraintOnly = real.every(isConstraintOnly);
      if (real.length === 0) {
        node = { ...rest, type: 'null' };
      } else if (constraintOnly && inferTypes(rest).length > 0) {
        // `{ type: object, anyOf: [{ required: [a] }, { required: [b] }] }`: the branches only narrow.
        this.log.add(`${unionKeyword} of constraint-only branches dropped`, path);
        node = rest;
      } else if (real.length === 1 && isSchemaRecord(real[0])) {
        const only = mergeAllOf(real[0], this.log, childPointer(path, unionKeyword));
        node = { ...only, ...rest, description: rest.description ?? only.description };
        if (node.description === undefined) delete node.description;
      } else {
        if (unionKeyword === 'oneOf') this.log.add('oneOf → anyOf (exclusivity lost)', path);
        const branches = real.map((member, index) =>
          this.convert(member, childPointer(childPointer(path, unionKeyword), index)),
        );
        const union: GeminiSchema = { anyOf: branches.flatMap((branch) => this.flattenUnion(branch)) };
        let description = typeof rest.description === 'string' ? rest.description : undefined;
        if (rest.default !== undefined) {
          description = appendDescription(description, `Default: ${describeValue(rest.default)}.`);
          this.log.add('default → description', path);
        }
        if (description !== undefined) union.description = description;
        if (nullable) union.nullable = true;
        const leftover = Object.keys(rest).filter(
          (key) => key !== 'description' && key !== 'default' && key !== 'examples' && !ANNOTATIONS.has(key),
        );
        if (leftover.length > 0)
          this.log.add(`keywords beside ${unionKeyword} dropped (${leftover.join(', ')})`, path);
        return union;
      }
    }

    const types = inferTypes(node);
    if (types.includes('null' as JsonType)) nullable = true;
    const concrete = types.filter((type) => type !== ('null' as JsonType));
    if (types.length === 0) {
      if (!isNullSchema(node)) this.log.add('unconstrained value → anyOf of JSON types', path);
      const schema = anyValue(node.description);
      if (nullable || isNullSchema(node)) schema.nullable = true;
      return schema;
    }
    if (concrete.length === 0) {
      this.log.add('null-only type became a nullable string', path);
      return { type: 'STRING', nullable: true, ...this.describe(node.description) };
    }
    if (concrete.length > 1) {
      // Gemini forbids `type` beside `anyOf`: split the type list into one branch per type.
      const { description, ...rest } = node;
      const union: GeminiSchema = {
        anyOf: concrete.map((type) => this.convertTyped({ ...rest, type }, type, path, false)),
      };
      if (typeof description === 'string') union.description = description;
      if (nullable) union.nullable = true;
      return union;
    }
    return this.convertTyped(node, concrete[0] as JsonType, path, nullable);
  }

  private describe(description: unknown): { description?: string } {
    return typeof description === 'string' ? { description } : {};
  }

  /** Nested unions without their own description flatten into the parent union. */
  private flattenUnion(branch: GeminiSchema): GeminiSchema[] {
    if (branch.anyOf && branch.description === undefined && !branch.nullable) return branch.anyOf;
    return [branch];
  }

  private convertTyped(
    node: SchemaRecord,
    jsonType: JsonType,
    path: string,
    nullable: boolean,
  ): GeminiSchema {
    const type = jsonType.toUpperCase() as GeminiType;
    const out: GeminiSchema = { type };
    let description = typeof node.description === 'string' ? node.description : undefined;
    const note = (text: string, construct: string): void => {
      description = appendDescription(description, text);
      this.log.add(construct, path);
    };
    const handled = new Set(['type', 'description', 'allOf', 'anyOf', 'oneOf', 'nullable']);
    const take = (keyword: string): unknown => {
      handled.add(keyword);
      return node[keyword];
    };

    const literals = take('enum');
    const constant = take('const');
    if (Array.isArray(literals) || constant !== undefined) {
      const values = Array.isArray(literals) ? literals : [constant];
      if (values.includes(null)) nullable = true;
      const real = values.filter((value) => value !== null);
      if (type === 'STRING' && real.every((value) => typeof value === 'string')) {
        out.enum = real as string[];
      } else if (real.length === 1) {
        note(`Must be ${describeValue(real[0])}.`, 'non-string const/enum → description');
      } else {
        note(`Allowed values: ${real.map(describeValue).join(', ')}.`, 'non-string enum → description');
      }
    }
    const defaultValue = take('default');
    if (defaultValue !== undefined) note(`Default: ${describeValue(defaultValue)}.`, 'default → description');
    const examples = take('examples');
    if (Array.isArray(examples) && examples.length > 0) out.example = examples[0];
    const example = take('example');
    if (example !== undefined) out.example = example;
    const format = take('format');
    if (typeof format === 'string') {
      if (GEMINI_FORMATS[type]?.includes(format)) out.format = format;
      else note(`Format: ${format}.`, `format ${format} → description`);
    }

    if (type === 'STRING') {
      const pattern = take('pattern');
      if (typeof pattern === 'string') out.pattern = pattern;
      const minLength = take('minLength');
      if (typeof minLength === 'number') out.minLength = String(minLength);
      const maxLength = take('maxLength');
      if (typeof maxLength === 'number') out.maxLength = String(maxLength);
    } else if (type === 'NUMBER' || type === 'INTEGER') {
      const minimum = take('minimum');
      if (typeof minimum === 'number') out.minimum = minimum;
      const maximum = take('maximum');
      if (typeof maximum === 'number') out.maximum = maximum;
      const exclusiveMinimum = take('exclusiveMinimum');
      if (typeof exclusiveMinimum === 'number')
        note(`Must be > ${exclusiveMinimum}.`, 'exclusiveMinimum → description');
      else if (exclusiveMinimum === true && out.minimum !== undefined)
        note(`Must be > ${out.minimum}.`, 'exclusiveMinimum → description');
      const exclusiveMaximum = take('exclusiveMaximum');
      if (typeof exclusiveMaximum === 'number')
        note(`Must be < ${exclusiveMaximum}.`, 'exclusiveMaximum → description');
      else if (exclusiveMaximum === true && out.maximum !== undefined)
        note(`Must be < ${out.maximum}.`, 'exclusiveMaximum → description');
      const multipleOf = take('multipleOf');
      if (typeof multipleOf === 'number')
        note(`Must be a multiple of ${multipleOf}.`, 'multipleOf → description');
    } else if (type === 'ARRAY') {
      out.items = this.convertItems(path, take);
      const minItems = take('minItems');
      if (typeof minItems === 'number') out.minItems = String(minItems);
      const maxItems = take('maxItems');
      if (typeof maxItems === 'number') out.maxItems = String(maxItems);
      if (take('uniqueItems') === true) note('Items must be unique.', 'uniqueItems → description');
    } else if (type === 'OBJECT') {
      this.convertObject(path, out, take, note);
    }

    for (const keyword of Object.keys(node)) {
      if (handled.has(keyword) || ANNOTATIONS.has(keyword) || keyword.startsWith('x-')) continue;
      this.log.add(`${keyword} dropped`, path);
    }
    if (description !== undefined) out.description = description;
    if (nullable) out.nullable = true;
    return out;
  }

  private convertItems(path: string, take: (keyword: string) => unknown): GeminiSchema {
    const items = take('items');
    const prefixItems = take('prefixItems');
    const tuple = Array.isArray(prefixItems) ? prefixItems : Array.isArray(items) ? items : undefined;
    if (tuple) {
      this.log.add('tuple items → array of their union', path);
      const extra = Array.isArray(prefixItems) && items !== undefined && !Array.isArray(items) ? [items] : [];
      const members = [...tuple, ...extra];
      if (members.length === 1) return this.convert(members[0], childPointer(path, 'items'));
      return this.convert({ anyOf: members }, childPointer(path, 'items'));
    }
    if (items === undefined || items === true) {
      this.log.add('array without items → items of any JSON type', path);
      return anyValue(undefined);
    }
    return this.convert(items, childPointer(path, 'items'));
  }

  private convertObject(
    path: string,
    out: GeminiSchema,
    take: (keyword: string) => unknown,
    note: (text: string, construct: string) => void,
  ): void {
    const properties = take('properties');
    const required = take('required');
    const converted: Record<string, GeminiSchema> = {};
    if (isSchemaRecord(properties)) {
      for (const [name, schema] of Object.entries(properties)) {
        converted[name] = this.convert(schema, childPointer(childPointer(path, 'properties'), name));
      }
    }
    const requiredNames = Array.isArray(required) ? [...new Set(required.map(String))] : [];
    for (const name of requiredNames) {
      if (!(name in converted)) {
        // A required key without a schema still has to be sent: never drop it.
        converted[name] = anyValue(undefined);
        this.log.add(`required "${name}" had no schema → any JSON value`, path);
      }
    }
    if (Object.keys(converted).length > 0) out.properties = converted;
    if (requiredNames.length > 0) out.required = requiredNames;
    const additional = take('additionalProperties');
    if (additional !== undefined && additional !== false) {
      this.log.add(
        out.properties
          ? 'additionalProperties dropped (extra keys not described)'
          : 'free-form object (additionalProperties) kept as bare OBJECT',
        path,
      );
      if (isSchemaRecord(additional) && !out.properties) {
        const valueType = inferTypes(additional)[0];
        if (valueType) note(`Values are ${valueType}s.`, 'additionalProperties schema → description');
      }
    }
    for (const keyword of ['patternProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas']) {
      if (take(keyword) !== undefined) this.log.add(`${keyword} dropped`, path);
    }
    const minProperties = take('minProperties');
    if (typeof minProperties === 'number') out.minProperties = String(minProperties);
    const maxProperties = take('maxProperties');
    if (typeof maxProperties === 'number') out.maxProperties = String(maxProperties);
  }
}

/**
 * Converts a tool's JSON Schema to the OpenAPI 3.0 subset Gemini accepts in
 * `FunctionDeclaration.parameters` (https://ai.google.dev/api/caching#Schema): `$ref` inlined
 * (cycles cut), upper-case `type`, no `type` beside `anyOf` (the `@google/genai` SDK rejects
 * both), `null` members and type-list entries folded into `nullable`, `oneOf` → `anyOf`,
 * `allOf` merged, `enum` on strings only, `const` → one-value `enum`, formats outside
 * `enum`/`date-time` (strings), `float`/`double`, `int32`/`int64` moved into the description, and
 * `additionalProperties`, `exclusiveMinimum`, `multipleOf`, `default` and the like dropped or
 * moved into the description. Every loss is logged. Returns `undefined` for a tool without
 * parameters: Gemini rejects an OBJECT with empty `properties` (vercel/ai#3371).
 */
export function toGeminiParameters(schema: SchemaRecord, log: LossLog): GeminiSchema | undefined {
  const { schema: inlined } = inlineRefs(schema, log);
  const converted = new GeminiSchemaConverter(log).convert(flattenRootUnion(inlined, log), '');
  if (converted.type !== 'OBJECT') {
    log.add('top level was not an object schema; wrapped as OBJECT', '');
    return { type: 'OBJECT', properties: { value: converted }, required: ['value'] };
  }
  if (!converted.properties && !converted.required) return undefined;
  return converted;
}
