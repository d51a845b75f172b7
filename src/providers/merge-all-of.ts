import type { LossLog } from './conversion-report.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

/**
 * Folds `allOf` into its parent: properties and `required` are united, other keywords keep the
 * first value seen (the parent's, then each branch's in order). Exact for the common case of
 * object branches with distinct properties; a conflict (same property or keyword with two
 * different values) keeps the first and is logged. Returns `node` unchanged without `allOf`.
 */
export function mergeAllOf(node: SchemaRecord, log: LossLog, path: string): SchemaRecord {
  const branches = node.allOf;
  if (!Array.isArray(branches)) return node;
  const { allOf: _allOf, ...rest } = node;
  const merged: SchemaRecord = { ...rest };
  const properties: SchemaRecord = isSchemaRecord(rest.properties) ? { ...rest.properties } : {};
  const required = new Set<string>(Array.isArray(rest.required) ? rest.required.map(String) : []);
  let conflict = false;
  for (const raw of branches) {
    if (raw === true) continue;
    if (!isSchemaRecord(raw)) {
      conflict = true;
      continue;
    }
    // A branch may itself carry allOf.
    const branch = mergeAllOf(raw, log, path);
    for (const [keyword, value] of Object.entries(branch)) {
      if (keyword === 'properties' && isSchemaRecord(value)) {
        for (const [name, schema] of Object.entries(value)) {
          if (name in properties && JSON.stringify(properties[name]) !== JSON.stringify(schema))
            conflict = true;
          else properties[name] = schema;
        }
      } else if (keyword === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(String(name));
      } else if (keyword === 'description' || keyword === 'title') {
        if (merged[keyword] === undefined) merged[keyword] = value;
      } else if (merged[keyword] === undefined) {
        merged[keyword] = value;
      } else if (JSON.stringify(merged[keyword]) !== JSON.stringify(value)) {
        conflict = true;
      }
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  log.add(conflict ? 'allOf merged with conflicts (first value kept)' : 'allOf merged into one schema', path);
  return merged;
}
