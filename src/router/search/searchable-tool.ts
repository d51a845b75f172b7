/** What the search index needs to know about one tool. */
export interface SearchableTool {
  /** The exposed name, returned in hits. */
  name: string;
  /** The MCP server, plugin id or native group that provides the tool. */
  server?: string;
  /** The `tool_index` category (server, plugin id or native group). */
  category?: string;
  description: string;
  /** The tool's JSON Schema input: parameter names and descriptions are searched too. */
  parameters?: Record<string, unknown>;
  /** The name at the tool's origin, before namespacing; searched instead of `name` when given. */
  originalName?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parameter names, descriptions and enum values of a JSON Schema, two levels deep: enough
 * for `{ filter: { properties: { label } } }` without walking huge nested schemas.
 */
export function parameterText(schema: unknown, depth = 0): string {
  if (!isRecord(schema) || depth > 2) return '';
  const parts: string[] = [];
  const properties = schema.properties;
  if (isRecord(properties)) {
    for (const [key, value] of Object.entries(properties)) {
      parts.push(key);
      if (!isRecord(value)) continue;
      if (typeof value.description === 'string') parts.push(value.description);
      if (Array.isArray(value.enum)) {
        for (const option of value.enum.slice(0, 20)) if (typeof option === 'string') parts.push(option);
      }
      parts.push(parameterText(value, depth + 1));
      if (isRecord(value.items)) parts.push(parameterText(value.items, depth + 1));
    }
  }
  return parts.filter((part) => part.length > 0).join(' ');
}
