import type { Tool } from '../tool/tool.js';

/**
 * The tools plan mode exposes: those declared read-only (`readOnly === true`). Router
 * tools are read-only except `call_tool`; MCP tools follow `readOnlyHint`; a tool that
 * says nothing is treated as a write.
 */
export function planModeFilter(tools: Tool[]): Tool[] {
  return tools.filter((tool) => tool.readOnly === true);
}
