import type { LossLog } from './conversion-report.js';
import { childPointer, resolveLocalRef } from './json-pointer.js';
import { LIST_SCHEMA_KEYWORDS, MAP_SCHEMA_KEYWORDS, SINGLE_SCHEMA_KEYWORDS } from './schema-keywords.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

/** Past this many inlined nodes a schema is cut, so a dense `$defs` graph cannot explode. */
const NODE_BUDGET = 20_000;

/** The result of {@link inlineRefs}. */
export interface InlinedSchema {
  schema: SchemaRecord;
  /** How many recursive `$ref`s had to be cut (the structure is then not fully expressed). */
  cycles: number;
}

/**
 * Replaces every local `$ref` by a copy of its target and drops `$defs`/`definitions`, for
 * providers that take no references (Gemini's OpenAPI subset has no `$ref`). A reference back
 * into its own expansion is cut to a stub keeping the target's `type` and description, and
 * logged; external references become unconstrained and are logged too.
 */
export function inlineRefs(root: SchemaRecord, log: LossLog): InlinedSchema {
  let budget = NODE_BUDGET;
  let cycles = 0;

  const visit = (node: unknown, path: string, active: readonly string[]): unknown => {
    if (!isSchemaRecord(node)) return node;
    budget -= 1;
    if (budget < 0) {
      log.add('schema too large to inline; subtree left unconstrained', path);
      return typeof node.description === 'string' ? { description: node.description } : {};
    }
    let current: SchemaRecord = node;
    let refs = active;
    // Follow chains of references (a → b → target) before walking children.
    while (typeof current.$ref === 'string') {
      const ref = current.$ref;
      const { $ref: _ignored, ...siblings } = current;
      const target = resolveLocalRef(root, ref);
      if (refs.includes(ref)) {
        cycles += 1;
        log.add(`recursive $ref ${ref} cut (deeper levels unconstrained)`, path);
        const stub: SchemaRecord = {};
        if (isSchemaRecord(target) && target.type !== undefined) stub.type = target.type;
        const description = siblings.description ?? (isSchemaRecord(target) ? target.description : undefined);
        if (typeof description === 'string') stub.description = description;
        return stub;
      }
      if (target === undefined) {
        log.add(`unresolvable $ref ${ref} (left unconstrained)`, path);
        return siblings;
      }
      refs = [...refs, ref];
      if (target === false) return { not: {} };
      // Siblings of `$ref` apply alongside it (JSON Schema 2020-12); the local description wins.
      current = isSchemaRecord(target) ? { ...target, ...siblings } : siblings;
    }
    const out: SchemaRecord = {};
    for (const [keyword, value] of Object.entries(current)) {
      if ((keyword === '$defs' || keyword === 'definitions') && isSchemaRecord(value)) continue;
      if (LIST_SCHEMA_KEYWORDS.includes(keyword) && Array.isArray(value)) {
        out[keyword] = value.map((item, index) =>
          visit(item, childPointer(childPointer(path, keyword), index), refs),
        );
      } else if (SINGLE_SCHEMA_KEYWORDS.includes(keyword)) {
        out[keyword] = visit(value, childPointer(path, keyword), refs);
      } else if (MAP_SCHEMA_KEYWORDS.includes(keyword) && isSchemaRecord(value)) {
        const mapped: SchemaRecord = {};
        for (const [name, child] of Object.entries(value)) {
          mapped[name] = visit(child, childPointer(childPointer(path, keyword), name), refs);
        }
        out[keyword] = mapped;
      } else {
        out[keyword] = value;
      }
    }
    return out;
  };

  const schema = visit(root, '', []);
  return { schema: isSchemaRecord(schema) ? schema : { type: 'object' }, cycles };
}

/** `true` when `schema` holds a `$ref` anywhere among its subschemas. */
export function hasRefs(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasRefs);
  if (!isSchemaRecord(schema)) return false;
  if (typeof schema.$ref === 'string') return true;
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'enum' || keyword === 'const' || keyword === 'default' || keyword === 'examples')
      continue;
    if (hasRefs(value)) return true;
  }
  return false;
}
