import type { CallContext } from './call-context.js';
import type { Tool } from './tool.js';
import type { ToolResult } from './tool-result.js';

/** Calls `tool` with `context` (its OpenClaw arguments taken from it). */
export function executeWith(
  tool: Pick<Tool, 'execute'>,
  params: Record<string, unknown>,
  context: CallContext,
): Promise<ToolResult> {
  return tool.execute(context.toolCallId, params, context.signal, context.onUpdate, context);
}
