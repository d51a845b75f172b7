import { isPlainObject } from '../json/is-plain-object.js';
import type { ContentBlock } from '../tool/content.js';
import type { ToolResult } from '../tool/tool.js';

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function toBlock(item: unknown): ContentBlock {
  if (typeof item === 'string') return { type: 'text', text: item };
  if (isPlainObject(item) && typeof item.type === 'string' && BLOCK_TYPES.has(item.type)) {
    if (item.type === 'text') return { ...(item as object), type: 'text', text: toText(item.text ?? '') };
    return item as unknown as ContentBlock;
  }
  // A block type we do not know: keep its information as text rather than drop it.
  return { type: 'text', text: toText(item) };
}

/**
 * Normalises whatever a plugin tool returned into a {@link ToolResult}: a result with
 * `content` keeps its blocks (strings and unknown blocks become text) and gets `details: {}`
 * when it had none; a string becomes a text block; any other value becomes its JSON as text
 * with the value itself as `details` (OpenClaw's `jsonResult` shape).
 */
export function normalizePluginResult(raw: unknown): ToolResult {
  if (raw === undefined || raw === null) return { content: [], details: {} };
  if (typeof raw === 'string') return { content: [{ type: 'text', text: raw }], details: {} };
  if (isPlainObject(raw) && Array.isArray(raw.content)) {
    const result: ToolResult = { ...(raw as object), content: raw.content.map(toBlock) } as ToolResult;
    if (!('details' in raw) || raw.details === undefined) result.details = {};
    if (raw.isError !== undefined) result.isError = raw.isError === true;
    return result;
  }
  return { content: [{ type: 'text', text: toText(raw) }], details: raw };
}
