import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { Tool } from '../../tool/tool.js';

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
