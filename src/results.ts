/**
 * `mcptools/results`: the content blocks of a tool result one by one, and the size helpers a
 * tool or an adapter caps its results with (UTF-8-safe cuts, base64 never cut).
 */
export type {
  AudioContent,
  EmbeddedResourceBody,
  EmbeddedResourceContent,
  ImageContent,
  OpenClawContentBlock,
  ResourceLinkContent,
  TextContent,
} from './tool/content.js';
export { base64ByteLength, capResultText, DEFAULT_MAX_RESULT_CHARS } from './tool/result.js';
export { type Truncation, truncateChars, truncateUtf8 } from './tool/truncate.js';
