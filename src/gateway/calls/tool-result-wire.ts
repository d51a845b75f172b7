import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/server';
import type { Tool, ToolResult } from '../../tool/tool.js';

/** A registry tool as an MCP tool definition: schema, annotations and output schema as declared. */
export function toMcpTool(tool: Tool): McpTool {
  const definition: McpTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as McpTool['inputSchema'],
  };
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema as McpTool['outputSchema'];
  return definition;
}

/** A tool result on the wire, lossless: every content block, `structuredContent`, `isError`, `_meta`. */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const wire: CallToolResult = { content: result.content as CallToolResult['content'] };
  if (result.isError === true) wire.isError = true;
  if (result.structuredContent !== undefined) wire.structuredContent = result.structuredContent;
  if (result._meta !== undefined) wire._meta = result._meta;
  return wire;
}
