import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { McpToolsError } from '../../errors/mcp-tools-error.js';

/** `MCP error <code>: `, which SDK v1 puts before every message it sends or receives. */
const SDK_PREFIX = /^(?:MCP error -?\d+: )+/;

/** `message` without the `MCP error <code>: ` prefixes SDKs stack in front of it. */
export function unprefixed(message: string): string {
  return message.replace(SDK_PREFIX, '');
}

/** The JSON-RPC error an upstream server answered with, when `error` is one (classified or not). */
function upstreamAnswer(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  const cause = McpToolsError.isInstance(error) ? error.cause : error;
  if (!ProtocolError.isInstance(cause)) return undefined;
  return {
    code: cause.code,
    message: unprefixed(cause.message),
    ...(cause.data === undefined ? {} : { data: cause.data }),
  };
}

/**
 * A failure as the JSON-RPC error a downstream client of the gateway gets. An error an
 * upstream server answered passes through once: its code, its message (without the
 * `MCP error <code>:` prefixes an SDK added) and its data. The gateway's own failures map to
 * `-32602` (a bad URI, arguments or tool name), the SDK's resource-not-found error, or `-32603`.
 */
export function toProtocolError(error: unknown): ProtocolError {
  const answer = upstreamAnswer(error);
  if (answer !== undefined) return new ProtocolError(answer.code, answer.message, answer.data);
  if (ProtocolError.isInstance(error)) return error;
  if (McpToolsError.isInstance(error)) {
    if (error.code === 'RESOURCE_NOT_FOUND' && typeof error.data?.uri === 'string')
      return new ResourceNotFoundError(error.data.uri, error.message);
    const code =
      error.code === 'INVALID_URI' || error.code === 'INVALID_ARGUMENTS' || error.code === 'TOOL_NOT_FOUND'
        ? ProtocolErrorCode.InvalidParams
        : ProtocolErrorCode.InternalError;
    // Only a shared URI's error carries data (the servers and their qualified URIs).
    return new ProtocolError(code, error.message, error.code === 'INVALID_URI' ? error.data : undefined);
  }
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    error instanceof Error ? error.message : String(error),
  );
}
