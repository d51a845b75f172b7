/** JSON Schema keywords whose value is one subschema (`items` may also be a list: see below). */
export const SINGLE_SCHEMA_KEYWORDS: readonly string[] = [
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'contentSchema',
  'items',
];

/** Keywords whose value is a list of subschemas (draft 4–7 `items` tuples included). */
export const LIST_SCHEMA_KEYWORDS: readonly string[] = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'];

/** Keywords whose value maps names to subschemas. */
export const MAP_SCHEMA_KEYWORDS: readonly string[] = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
];
