import type { ContentBlock } from './content.js';

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
