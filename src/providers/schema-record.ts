/** A JSON Schema node as a plain record (booleans are handled by the callers). */
export type SchemaRecord = Record<string, unknown>;

/** `true` when `value` is a plain object (not an array, not null). */
export function isSchemaRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
