import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { McpToolsError, type McpToolsErrorCode } from '../errors/mcp-tools-error.js';

/** What the failing operation was, so that one SDK error can be read the right way. */
export interface ErrorContext {
  /** `call` (tool call), `resource` (resources/read), `connect`, or any other request. */
  operation?: 'call' | 'resource' | 'connect' | 'request';
  /** The caller's signal: when it is aborted, the failure is an abort whatever the SDK says. */
  signal?: AbortSignal;
  /** Timeout in ms that applied, named in the message. */
  timeoutMs?: number;
}

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
  [/sampling/i, 'sampling is not enabled in mcptools; pass onSamplingRequest to loadMCPServers'],
  [/elicit/i, 'elicitation is not enabled in mcptools; pass onElicitation to loadMCPServers'],
  [/roots/i, 'roots are not enabled in mcptools; pass workspaceDir or roots to loadMCPServers'],
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

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
]);

/** The network failure behind `error` (fetch wraps it as `cause`), if there is one. */
function networkFailure(error: unknown): string | undefined {
  for (
    let current = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && networkCodes.has(code)) return current.message;
  }
  return undefined;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** A short description of any thrown value, without stack or secrets the value does not itself hold. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * Classifies a foreign error (SDK `SdkError`, JSON-RPC `ProtocolError`, abort, network) once,
 * at the boundary, into an {@link McpToolsError}. An `McpToolsError` passes through unchanged.
 */
export function classifyError(error: unknown, context: ErrorContext = {}): McpToolsError {
  if (McpToolsError.isInstance(error)) return error;
  if (context.signal?.aborted) {
    const reason = context.signal.reason;
    if (McpToolsError.isInstance(reason)) return reason;
    if (reason instanceof Error && reason.name === 'TimeoutError') {
      // The caller's own deadline (AbortSignal.timeout) fired, not the timeout mcptools applied.
      return new McpToolsError('TIMEOUT', "timed out by the caller's signal (its own timeout)", {
        cause: error,
        data: { timeout: 'signal' },
      });
    }
    return new McpToolsError('ABORTED', 'aborted by the caller', { cause: error });
  }
  // Before the SDK's own wrapping, which names only "fetch failed" (e.g. a failed era probe).
  const network = networkFailure(error);
  if (network !== undefined) {
    return new McpToolsError('CONNECTION_FAILED', `cannot reach the server: ${network}`, { cause: error });
  }
  if (SdkError.isInstance(error)) return fromSdkError(error, context);
  if (ProtocolError.isInstance(error)) return fromProtocolError(error, context);
  if (isAbortError(error)) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return timedOut
      ? new McpToolsError('TIMEOUT', timeoutMessage(context.timeoutMs), { cause: error })
      : new McpToolsError('ABORTED', 'aborted', { cause: error });
  }
  const code: McpToolsErrorCode = context.operation === 'connect' ? 'CONNECTION_FAILED' : 'UPSTREAM_ERROR';
  return new McpToolsError(code, describeError(error), { cause: error });
}

function timeoutMessage(timeoutMs: number | undefined): string {
  return timeoutMs === undefined ? 'timed out' : `timed out after ${timeoutMs} ms`;
}
