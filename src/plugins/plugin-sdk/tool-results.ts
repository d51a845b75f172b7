/**
 * Result helpers of OpenClaw's `openclaw/plugin-sdk` (`jsonResult`, …) for plugins loaded
 * without an OpenClaw install. Results have OpenClaw's `AgentToolResult` shape.
 */
import { jsonResult as mcptoolsJsonResult, textResult as mcptoolsTextResult } from '../../tool/result.js';
import type { ToolResult } from '../../tool/tool.js';

/** A result whose text is the pretty JSON of `payload` and whose `details` is `payload`. */
export function jsonResult(payload: unknown): ToolResult {
  return mcptoolsJsonResult(payload);
}

/** A result holding one text block; `details` defaults to an empty object as OpenClaw expects. */
export function textResult(text: string, details: unknown = {}): ToolResult {
  return mcptoolsTextResult(text, details);
}

/** A result holding one base64 image, with an optional caption before it. */
export function imageResult(options: {
  data: string;
  mimeType: string;
  text?: string;
  details?: unknown;
}): ToolResult {
  const caption = options.text ? [{ type: 'text' as const, text: options.text }] : [];
  return {
    content: [...caption, { type: 'image', data: options.data, mimeType: options.mimeType }],
    details: options.details ?? {},
  };
}
