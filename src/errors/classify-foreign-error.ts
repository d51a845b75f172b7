import { McpToolsError, type McpToolsErrorCode } from './mcp-tools-error.js';

/** What the failing operation was, so that one SDK error can be read the right way. */
export interface ErrorContext {
  /** `call` (tool call), `resource` (resources/read), `connect`, or any other request. */
  operation?: 'call' | 'resource' | 'connect' | 'request';
  /** The caller's signal: when it is aborted, the failure is an abort whatever the SDK says. */
  signal?: AbortSignal;
  /** Timeout in ms that applied, named in the message. */
  timeoutMs?: number;
}

/** Reads the SDK's own errors (`SdkError`, `ProtocolError`); `undefined` for anything else. */
export type SdkErrorReader = (error: unknown, context: ErrorContext) => McpToolsError | undefined;

// Set by src/mcp/classify-error.ts when the MCP client loads: an SDK error can only exist once
// the SDK is loaded, and this module stays free of it (the package root imports it eagerly).
let sdkErrorReader: SdkErrorReader | undefined;

/** Installs the reader of SDK errors; called once, by the module that loads the SDK client. */
export function readSdkErrorsWith(reader: SdkErrorReader): void {
  sdkErrorReader = reader;
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
export function classifyForeignError(error: unknown, context: ErrorContext = {}): McpToolsError {
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
  const fromSdk = sdkErrorReader?.(error, context);
  if (fromSdk !== undefined) return fromSdk;
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
