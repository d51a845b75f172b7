import { exceedsDepth } from '../json/json-bounds.js';
import type { ContentBlock } from './content.js';
import type { ToolResult } from './tool.js';

/**
 * Deepest nesting a tool result may carry. JSON results of real tools stay far shallower;
 * deeper ones make `JSON.stringify`, provider converters and every later walk throw `RangeError`.
 */
export const MAX_RESULT_DEPTH = 128;

/**
 * A result whose `structuredContent`, `_meta` and content blocks nest at most `maxDepth`
 * levels: a part nested deeper is dropped and a text notice says which. Results within the
 * bound come back as they are.
 */
export function boundResultDepth(result: ToolResult, maxDepth = MAX_RESULT_DEPTH): ToolResult {
  const dropped: string[] = [];
  let content: ContentBlock[] = result.content;
  if (result.content.some((block) => exceedsDepth(block, maxDepth))) {
    content = result.content.filter((block) => !exceedsDepth(block, maxDepth));
    dropped.push(`${result.content.length - content.length} content block(s)`);
  }
  const bounded: ToolResult = { ...result, content };
  if (result.structuredContent !== undefined && exceedsDepth(result.structuredContent, maxDepth)) {
    delete bounded.structuredContent;
    dropped.push('structuredContent');
  }
  if (result._meta !== undefined && exceedsDepth(result._meta, maxDepth)) {
    delete bounded._meta;
    dropped.push('_meta');
  }
  if (dropped.length === 0) return result;
  bounded.content = [
    ...content,
    {
      type: 'text',
      text: `[Omitted by mcptools: ${dropped.join(', ')} nested deeper than ${maxDepth} levels]`,
    },
  ];
  return bounded;
}
