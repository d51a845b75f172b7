import type { CallContext } from './call-context.js';
import type { ContentBlock } from './content.js';

/** A JSON Schema object whose top level is `type: "object"`. */
export type JsonSchemaObject = {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
};

/**
 * The result of one tool call. Lossless: MCP audio, embedded resources, resource links,
 * `structuredContent` and `_meta` survive; {@link toOpenClawResult} gives the degraded view.
 */
export interface ToolResult {
  content: ContentBlock[];
  /** Free-form data for the host, never shown to the model by default. */
  details?: unknown;
  /** `true` when the tool failed; the content then explains why. */
  isError?: boolean;
  /** MCP `structuredContent`, when the tool declared an output schema. */
  structuredContent?: Record<string, unknown>;
  /** MCP result `_meta`. */
  _meta?: Record<string, unknown>;
}

/** A partial result pushed while a call runs (OpenClaw `onUpdate`, MCP progress). */
export interface ToolUpdate {
  content: ContentBlock[];
  details?: unknown;
  /** MCP progress, when the update came from `notifications/progress`. */
  progress?: { progress: number; total?: number; message?: string };
}

/** OpenClaw's progressive-update callback. */
export type ToolUpdateCallback = (update: ToolUpdate) => void;

/** MCP tool annotations (behaviour hints). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [hint: string]: unknown;
}

/** Where a tool came from. */
export type ToolSource = 'native' | 'plugin' | 'mcp' | 'router';

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
export interface Tool {
  name: string;
  label?: string;
  description: string;
  parameters: JsonSchemaObject;
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
  ownerOnly?: boolean;
  /** Where the tool came from; `native` when absent. */
  source?: ToolSource;
  /** The MCP server (or plugin id) that provides the tool. */
  server?: string;
  /** The tool's name at its origin, before namespacing. */
  originalName?: string;
  /** MCP behaviour hints. */
  annotations?: ToolAnnotations;
  /** `true` when calling the tool never changes anything (plan mode keeps it). */
  readOnly?: boolean;
  /** Group used by `tool_index` category filters (server, plugin id or native group). */
  category?: string;
  /** MCP output schema, when declared. */
  outputSchema?: Record<string, unknown>;
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
