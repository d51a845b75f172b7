import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolResult } from '../../tool/tool.js';

/** A tool result on the wire, lossless: every content block, `structuredContent`, `isError`, `_meta`. */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const wire: CallToolResult = { content: result.content as CallToolResult['content'] };
  if (result.isError === true) wire.isError = true;
  if (result.structuredContent !== undefined) wire.structuredContent = result.structuredContent;
  if (result._meta !== undefined) wire._meta = result._meta;
  return wire;
}
