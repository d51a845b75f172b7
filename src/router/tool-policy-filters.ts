import type { Tool } from '../tool/tool.js';

/**
 * The tools plan mode exposes: those declared read-only (`readOnly === true`). Router
 * tools are read-only except `call_tool`; MCP tools follow `readOnlyHint`; a tool that
 * says nothing is treated as a write.
 */
export function planModeFilter(tools: Tool[]): Tool[] {
  return tools.filter((tool) => tool.readOnly === true);
}

/**
 * OpenClaw's owner policy: a sender who is not the owner gets no `ownerOnly` tool. The
 * owner gets every tool.
 */
export function ownerOnlyFilter(tools: Tool[], senderIsOwner: boolean): Tool[] {
  return senderIsOwner ? tools : tools.filter((tool) => tool.ownerOnly !== true);
}
