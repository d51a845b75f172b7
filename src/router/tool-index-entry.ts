import type { Tool } from '../tool/tool.js';

/**
 * One tool in a `tool_index` response. Both tiers share these keys; the compact tier has a
 * short description and no `input_schema` (seed 004: same shape, schema fields absent).
 */
export interface ToolIndexEntry {
  name: string;
  description: string;
  category: string;
  server?: string;
  read_only?: boolean;
  input_schema?: Record<string, unknown>;
}

/** Default length cap of a compact-tier description. */
export const SHORT_DESCRIPTION_CHARS = 160;

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

/**
 * A tool as `tool_index` shows it. Compact: name, short description, category, server,
 * read_only. Full (`includeSchema`): the whole description and `input_schema` as well.
 */
export function toolIndexEntry(
  tool: Tool,
  includeSchema: boolean,
  descriptionChars = SHORT_DESCRIPTION_CHARS,
): ToolIndexEntry {
  const readOnly = toolReadOnly(tool);
  return {
    name: tool.name,
    description: includeSchema ? tool.description : shortDescription(tool.description, descriptionChars),
    category: toolCategory(tool),
    ...(tool.server === undefined ? {} : { server: tool.server }),
    ...(readOnly === undefined ? {} : { read_only: readOnly }),
    ...(includeSchema ? { input_schema: tool.parameters } : {}),
  };
}
