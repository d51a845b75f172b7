/**
 * Content blocks a tool result can carry. The union is the lossless superset of
 * OpenClaw's `text | image` and MCP's `text | image | audio | resource | resource_link`
 * (the lossless form kept inside mcptools).
 */

/** Plain text. Identical in OpenClaw and MCP. */
export interface TextContent {
  type: 'text';
  text: string;
  _meta?: Record<string, unknown>;
}

/** Base64 image. Identical in OpenClaw and MCP. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  _meta?: Record<string, unknown>;
}

/** Base64 audio (MCP only). */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  _meta?: Record<string, unknown>;
}

/** The body of an embedded resource: text or a base64 blob. */
export interface EmbeddedResourceBody {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}

/** A resource embedded in a result (MCP only). */
export interface EmbeddedResourceContent {
  type: 'resource';
  resource: EmbeddedResourceBody;
  _meta?: Record<string, unknown>;
}

/** A link to a resource the client may read later (MCP only). */
export interface ResourceLinkContent {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  _meta?: Record<string, unknown>;
}

/** Every content block a lossless {@link ToolResult} may hold. */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | EmbeddedResourceContent
  | ResourceLinkContent;

/** The blocks OpenClaw's `AgentTool` understands. */
export type OpenClawContentBlock = TextContent | ImageContent;
