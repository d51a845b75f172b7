/** A JSON Schema object whose top level is `type: "object"`. */
export type JsonSchemaObject = {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
};

/** MCP tool annotations (behaviour hints). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [hint: string]: unknown;
}

/** Where a tool came from. */
export type ToolSource = 'native' | 'plugin' | 'mcp' | 'router';

/**
 * What a tool says about itself: everything of a {@link Tool} but `execute`. An approval
 * handler is shown this, never something it could call.
 */
export interface ToolDescription {
  name: string;
  label?: string;
  description: string;
  parameters: JsonSchemaObject;
  ownerOnly?: boolean;
  /** Where the tool came from; `native` when absent. */
  source?: ToolSource;
  /** The MCP server (or plugin id) that provides the tool. */
  server?: string;
  /** The tool's name at its origin, before namespacing. */
  originalName?: string;
  /** MCP behaviour hints. */
  annotations?: ToolAnnotations;
  /** `true` when calling the tool never changes anything (plan mode keeps it). */
  readOnly?: boolean;
  /** Group used by `tool_index` category filters (server, plugin id or native group). */
  category?: string;
  /** MCP output schema, when declared. */
  outputSchema?: Record<string, unknown>;
}
