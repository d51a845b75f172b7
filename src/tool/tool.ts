import type { CallContext } from './call-context.js';
import type { ToolDescription } from './tool-description.js';
import type { ToolResult, ToolUpdateCallback } from './tool-result.js';

export type { JsonSchemaObject, ToolAnnotations, ToolDescription, ToolSource } from './tool-description.js';
export type { ToolResult, ToolUpdate, ToolUpdateCallback } from './tool-result.js';

/**
 * A tool an agent can call: OpenClaw's `AgentTool` shape plus metadata
 * that never breaks that shape.
 *
 * @example
 * const echo: Tool = {
 *   name: 'echo', description: 'Echo the text back',
 *   parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *   execute: async (_id, params) => ({ content: [{ type: 'text', text: String(params.text) }] }),
 * };
 */
export interface Tool extends ToolDescription {
  /**
   * OpenClaw's signature, plus the call's {@link CallContext} as a fifth argument: whoever
   * received the call (the gateway) passes it, and wrappers hand it on unchanged. A tool called
   * without one acts for the in-process operator (see `defaultCallContext`); its `toolCallId`,
   * `signal` and `onUpdate` are the positional ones.
   */
  execute(
    toolCallId: string,
    params: Record<string, unknown>,
    signal?: AbortSignal,
    onUpdate?: ToolUpdateCallback,
    context?: CallContext,
  ): Promise<ToolResult>;
}

/** Context handed to tool factories, OpenClaw style. */
export interface ToolContext {
  workspaceDir?: string;
  agentDir?: string;
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  messageChannel?: string;
  sandboxed?: boolean;
  config?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A factory returns a tool, several, or `null` to opt out for this context. */
export type ToolFactory = (
  context: ToolContext,
) => Tool | Tool[] | null | undefined | Promise<Tool | Tool[] | null | undefined>;
