import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { jsonBounds } from '../json/json-bounds.js';
import { formatBytes } from '../tool/result.js';

/**
 * Deepest input or output schema kept as it is. Real schemas nest a dozen levels; deeper ones
 * would overflow the stack of validators and converters.
 */
export const MAX_SCHEMA_DEPTH = 64;
/**
 * Largest schema kept as it is (JSON size, estimated). Real tools stay under 64 KiB; compiling a
 * multi-megabyte schema blocks the event loop for seconds and no model can read it anyway.
 */
export const MAX_SCHEMA_BYTES = 128 * 1024;
/** Longest description kept whole; the rest is cut with a marker. */
export const MAX_DESCRIPTION_CHARS = 64 * 1024;

/** Tool definitions fit to register, and one warning per tool that had to be trimmed or dropped. */
export interface ScreenedTools {
  tools: McpToolDefinition[];
  warnings: string[];
}

/**
 * Checks each tool of a server's `tools/list` on its own, so that one hostile definition never
 * takes down the rest: a definition without a name is dropped; an input schema nested deeper
 * than {@link MAX_SCHEMA_DEPTH} or larger than {@link MAX_SCHEMA_BYTES} is replaced by an open
 * object schema whose description says why (the server still validates the arguments); such an
 * output schema is dropped; an overlong description is cut. Each case yields a warning naming
 * the tool.
 */
export function screenToolDefinitions(definitions: readonly unknown[], server: string): ScreenedTools {
  const tools: McpToolDefinition[] = [];
  const warnings: string[] = [];
  definitions.forEach((definition, index) => {
    if (
      typeof definition !== 'object' ||
      definition === null ||
      typeof (definition as { name?: unknown }).name !== 'string'
    ) {
      warnings.push(`tool #${index} of "${server}" has no name and was skipped`);
      return;
    }
    // Copied only when something has to change: most definitions pass as they are.
    let tool = definition as McpToolDefinition;
    const input = oversize(tool.inputSchema);
    if (input !== undefined || typeof tool.inputSchema !== 'object' || tool.inputSchema === null) {
      const reason = input ?? 'is not an object';
      warnings.push(
        `tool "${tool.name}" of "${server}": its input schema ${reason}; it is replaced by an open object schema`,
      );
      tool = {
        ...tool,
        inputSchema: {
          type: 'object',
          description: `The input schema was omitted by mcptools: it ${reason}. The server checks the arguments.`,
          additionalProperties: true,
        },
      };
    }
    const output = tool.outputSchema === undefined ? undefined : oversize(tool.outputSchema);
    if (output !== undefined) {
      warnings.push(`tool "${tool.name}" of "${server}": its output schema ${output}; it is dropped`);
      const { outputSchema: _dropped, ...rest } = tool;
      tool = rest;
    }
    if (typeof tool.description === 'string' && tool.description.length > MAX_DESCRIPTION_CHARS) {
      warnings.push(
        `tool "${tool.name}" of "${server}": its description of ${tool.description.length} characters is cut`,
      );
      tool = {
        ...tool,
        description: `${tool.description.slice(0, MAX_DESCRIPTION_CHARS)}… [description cut by mcptools]`,
      };
    }
    tools.push(tool);
  });
  // An exact-size copy: the connection keeps the list, and a pushed array keeps slack (one
  // pushed element holds 17 slots).
  return { tools: tools.slice(), warnings };
}

/** Why `schema` is too deep or too large, or `undefined` when it is fine ({@link jsonBounds}). */
export function oversize(schema: unknown): string | undefined {
  const crossed = jsonBounds(schema, { maxDepth: MAX_SCHEMA_DEPTH, maxBytes: MAX_SCHEMA_BYTES });
  if (crossed === 'depth') return `is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
  if (crossed === 'bytes') return `is larger than ${formatBytes(MAX_SCHEMA_BYTES)}`;
  return undefined;
}
