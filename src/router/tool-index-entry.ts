import type { ServerState } from '../mcp/hub-types.js';
import type { Tool } from '../tool/tool.js';

/**
 * One tool in a `tool_index` response. Both tiers share these keys; the compact tier has a
 * short description and no `input_schema` (the same shape, schema fields absent).
 */
export interface ToolIndexEntry {
  name: string;
  description: string;
  category: string;
  server?: string;
  read_only?: boolean;
  /** The state of the tool's MCP server when it is not connected: calls fail until it is. */
  server_state?: Exclude<ServerState, 'connected'>;
  input_schema?: Record<string, unknown>;
  /** Why `input_schema` is missing from a full-tier entry (it alone was over the response budget). */
  schema_omitted?: string;
}

/** Default length cap of a compact-tier description. */
export const SHORT_DESCRIPTION_CHARS = 160;

/**
 * Default length cap of a full-tier description: whole for nearly every tool, while the few
 * with pages of usage notes cannot crowd a five-result search past ~2,000 tokens.
 */
export const FULL_DESCRIPTION_CHARS = 1000;

/** `text` cut to `maxChars` at a sentence end (or else a word boundary), marked with `…`. */
export function capDescription(text: string, maxChars = FULL_DESCRIPTION_CHARS): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const sentenceEnd = Math.max(...['. ', '.\n', '。'].map((end) => cut.lastIndexOf(end)));
  if (sentenceEnd > maxChars / 2) return `${cut.slice(0, sentenceEnd + 1)} …`;
  const lastSpace = cut.search(/\s\S*$/);
  return `${(lastSpace > maxChars / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** The input schema as `tool_index` shows it: the `$schema` dialect URL says nothing to a model. */
function shownSchema(schema: Record<string, unknown>): Record<string, unknown> {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * The first sentence of `text`, at most `maxChars` long (cut at a word boundary with `…`):
 * enough to pick a tool, and most of the token saving of the compact tier.
 */
export function shortDescription(text: string, maxChars = SHORT_DESCRIPTION_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const sentenceEnd = flat.search(/[.!?。！？](\s|$)/);
  const sentence = sentenceEnd >= 0 ? flat.slice(0, sentenceEnd + 1) : flat;
  if (sentence.length <= maxChars) return sentence;
  const cut = sentence.slice(0, maxChars - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxChars / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** The category `tool_index` files a tool under: its own, else its server, else its source. */
export function toolCategory(tool: Tool): string {
  return tool.category ?? tool.server ?? tool.source ?? 'native';
}

/** Whether a tool is known to be read-only (its own flag, else the MCP `readOnlyHint`). */
export function toolReadOnly(tool: Tool): boolean | undefined {
  return tool.readOnly ?? tool.annotations?.readOnlyHint;
}

/** Length caps of the two tiers' descriptions. */
export interface DescriptionCaps {
  compact?: number;
  full?: number;
}

/**
 * A tool as `tool_index` shows it. Compact: name, short description, category, server,
 * read_only, and `server_state` when its MCP server is not connected. Full
 * (`includeSchema`): the description (up to 1,000 characters) and `input_schema` as well.
 */
export function toolIndexEntry(
  tool: Tool,
  includeSchema: boolean,
  caps: DescriptionCaps = {},
  serverState?: ServerState,
): ToolIndexEntry {
  const readOnly = toolReadOnly(tool);
  return {
    name: tool.name,
    description: includeSchema
      ? capDescription(tool.description, caps.full ?? FULL_DESCRIPTION_CHARS)
      : shortDescription(tool.description, caps.compact ?? SHORT_DESCRIPTION_CHARS),
    category: toolCategory(tool),
    ...(tool.server === undefined ? {} : { server: tool.server }),
    ...(readOnly === undefined ? {} : { read_only: readOnly }),
    ...(serverState === undefined || serverState === 'connected' ? {} : { server_state: serverState }),
    ...(includeSchema ? { input_schema: shownSchema(tool.parameters) } : {}),
  };
}
