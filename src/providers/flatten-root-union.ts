import type { LossLog } from './conversion-report.js';
import { resolveLocalRef } from './json-pointer.js';
import { mergeAllOf } from './merge-all-of.js';
import { isSchemaRecord, type SchemaRecord } from './schema-record.js';

/**
 * Turns a top-level `anyOf`/`oneOf` of object branches into one object, for providers that
 * want a plain object at the top (Anthropic rejects `oneOf`/`anyOf`/`allOf` there; Gemini and
 * OpenAI strict mode want an object). The result has every branch's properties; a property is
 * required only when every branch (or the parent) requires it, so no call valid before becomes
 * invalid. `allOf` at the top is merged. Logged as a loss of the "exactly one shape" rule.
 */
export function flattenRootUnion(schema: SchemaRecord, log: LossLog): SchemaRecord {
  let root = mergeAllOfIfPresent(schema, log);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = root[keyword];
    if (!Array.isArray(branches)) continue;
    const { [keyword]: _union, ...rest } = root;
    const objects = branches
      .map((branch) =>
        isSchemaRecord(branch) && typeof branch.$ref === 'string'
          ? resolveLocalRef(schema, branch.$ref)
          : branch,
      )
      .filter(isSchemaRecord)
      .map((branch) => mergeAllOfIfPresent(branch, log));
    const properties: SchemaRecord = isSchemaRecord(rest.properties) ? { ...rest.properties } : {};
    const parentRequired = Array.isArray(rest.required) ? rest.required.map(String) : [];
    let common: Set<string> | undefined;
    for (const branch of objects) {
      if (isSchemaRecord(branch.properties)) {
        for (const [name, value] of Object.entries(branch.properties)) {
          if (!(name in properties)) properties[name] = value;
        }
      }
      const required = new Set(Array.isArray(branch.required) ? branch.required.map(String) : []);
      common = common ? new Set([...common].filter((name) => required.has(name))) : required;
    }
    const required = [...new Set([...parentRequired, ...(common ?? [])])];
    root = { ...rest, type: 'object', properties };
    if (required.length > 0) root.required = required;
    else delete root.required;
    log.add(
      `top-level ${keyword} merged into one object (branch-specific required keys became optional)`,
      '',
    );
  }
  return root;
}

function mergeAllOfIfPresent(node: SchemaRecord, log: LossLog): SchemaRecord {
  return Array.isArray(node.allOf) ? mergeAllOf(node, log, '') : node;
}
