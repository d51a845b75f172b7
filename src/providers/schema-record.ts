/** A JSON Schema node as a plain record (booleans are handled by the callers). */
export type SchemaRecord = Record<string, unknown>;

/** `true` when `value` is a plain object (not an array, not null): a schema node to walk. */
export { isPlainObject as isSchemaRecord } from '../json/is-plain-object.js';
