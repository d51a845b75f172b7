import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import {
  classifyForeignError,
  describeError,
  type ErrorContext,
  readSdkErrorsWith,
} from '../errors/classify-foreign-error.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { ErrorInfo } from './hub-types.js';

export { describeError, type ErrorContext };

const notFoundPattern = /not\s*found|unknown resource|no such resource|does not exist/i;
const permissionPattern = /permission|forbidden|unauthori[sz]ed|access denied|not allowed/i;

/** The SDK codes that mean the connection itself is gone or unusable. */
const connectionCodes = new Set<string>([
  SdkErrorCode.NotConnected,
  SdkErrorCode.ConnectionClosed,
  SdkErrorCode.SendFailed,
  SdkErrorCode.ClientHttpFailedToOpenStream,
  SdkErrorCode.ClientHttpNotImplemented,
  SdkErrorCode.ClientHttpUnexpectedContent,
  SdkErrorCode.EraNegotiationFailed,
]);

function fromSdkError(error: SdkError, context: ErrorContext): McpToolsError {
  const code: string = error.code;
  if (code === SdkErrorCode.RequestTimeout) {
    const ms = context.timeoutMs ?? (error.data as { timeout?: number } | undefined)?.timeout;
    return new McpToolsError(
      'TIMEOUT',
      ms === undefined ? 'request timed out' : `request timed out after ${ms} ms`,
      {
        cause: error,
        data: { sdkCode: code },
      },
    );
  }
  if (code === SdkErrorCode.ClientHttpAuthentication || code === SdkErrorCode.ClientHttpForbidden) {
    return new McpToolsError('PERMISSION_DENIED', error.message, { cause: error, data: { sdkCode: code } });
  }
  if (code === SdkErrorCode.ConnectionClosed || code === SdkErrorCode.NotConnected) {
    return new McpToolsError('SERVER_DISCONNECTED', `connection closed (${error.message})`, {
      cause: error,
      data: { sdkCode: code },
    });
  }
  if (connectionCodes.has(code)) {
    return new McpToolsError('CONNECTION_FAILED', error.message, { cause: error, data: { sdkCode: code } });
  }
  return new McpToolsError('UPSTREAM_ERROR', error.message, {
    cause: error,
    data: { sdkCode: code },
    recoverable: false,
  });
}

/** What to configure when a 2026-era server needs a client capability mcptools did not declare. */
const capabilityHints: [RegExp, string][] = [
  [/sampling/i, 'sampling is not enabled in mcptools; pass onSamplingRequest to loadMcpServers'],
  [/elicit/i, 'elicitation is not enabled in mcptools; pass onElicitation to loadMcpServers'],
  [/roots/i, 'roots are not enabled in mcptools; pass workspaceDir or roots to loadMcpServers'],
];

function fromProtocolError(error: ProtocolError, context: ErrorContext): McpToolsError {
  const data = { rpcCode: error.code };
  let message = error.message;
  if (error.code === ProtocolErrorCode.MissingRequiredClientCapability) {
    const hint = capabilityHints.find(([pattern]) => pattern.test(message))?.[1];
    if (hint) message = `${message} (${hint})`;
  }
  if (context.operation === 'resource') {
    // Spec 2026-07-28 answers a miss with -32602; older peers use -32002 (SDK ProtocolErrorCode docs).
    if (error.code === ProtocolErrorCode.ResourceNotFound || notFoundPattern.test(message)) {
      return new McpToolsError('RESOURCE_NOT_FOUND', message, { cause: error, data });
    }
  }
  if (permissionPattern.test(message) && error.code !== ProtocolErrorCode.MethodNotFound) {
    return new McpToolsError('PERMISSION_DENIED', message, { cause: error, data });
  }
  if (
    context.operation === 'call' &&
    error.code === ProtocolErrorCode.InvalidParams &&
    /unknown tool|not found/i.test(message)
  ) {
    return new McpToolsError('TOOL_NOT_FOUND', message, { cause: error, data });
  }
  return new McpToolsError('UPSTREAM_ERROR', message, {
    cause: error,
    data,
    // A server's internal error may pass; bad requests will not fix themselves.
    recoverable: error.code === ProtocolErrorCode.InternalError,
  });
}

readSdkErrorsWith((error, context) => {
  if (SdkError.isInstance(error)) return fromSdkError(error, context);
  if (ProtocolError.isInstance(error)) return fromProtocolError(error, context);
  return undefined;
});

/**
 * Classifies a foreign error (SDK `SdkError`, JSON-RPC `ProtocolError`, abort, network) once,
 * at the boundary, into an {@link McpToolsError}. An `McpToolsError` passes through unchanged.
 * Importing this module is what teaches {@link classifyForeignError} the SDK's errors.
 */
export const classifyError: typeof classifyForeignError = classifyForeignError;

/** The JSON-safe view of any error for status and multi-server results. */
export function errorInfo(error: unknown): ErrorInfo {
  const { code, message, recoverable } = classifyError(error);
  return { code, message, recoverable };
}
