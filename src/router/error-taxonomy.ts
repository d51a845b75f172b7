import { classifyForeignError } from '../errors/classify-foreign-error.js';
import { McpToolsError, type McpToolsErrorCode } from '../errors/mcp-tools-error.js';

/**
 * Error types a router result can carry: the five router types first, then one per
 * {@link McpToolsErrorCode} they do not cover.
 */
export type RouterErrorType =
  | 'ConnectionFailed'
  | 'Timeout'
  | 'ResourceNotFound'
  | 'PermissionDenied'
  | 'InvalidURI'
  | 'Aborted'
  | 'ToolNotFound'
  | 'InvalidArguments'
  | 'UpstreamError'
  | 'ConfigInvalid';

/** A classified failure, JSON-safe, as router results show it (their `data`). */
export interface RouterError {
  type: RouterErrorType;
  code: McpToolsErrorCode;
  msg: string;
  recoverable: boolean;
}

/** The one table from {@link McpToolsError} codes to router error types. */
const typeByCode: Record<McpToolsErrorCode, RouterErrorType> = {
  CONNECTION_FAILED: 'ConnectionFailed',
  SERVER_DISCONNECTED: 'ConnectionFailed',
  TIMEOUT: 'Timeout',
  ABORTED: 'Aborted',
  RESOURCE_NOT_FOUND: 'ResourceNotFound',
  PERMISSION_DENIED: 'PermissionDenied',
  INVALID_URI: 'InvalidURI',
  TOOL_NOT_FOUND: 'ToolNotFound',
  INVALID_ARGUMENTS: 'InvalidArguments',
  UPSTREAM_ERROR: 'UpstreamError',
  CONFIG_INVALID: 'ConfigInvalid',
};

/** The `recoverable` flag of each type; codes outside it follow {@link McpToolsError}. */
const recoverableByType: Partial<Record<RouterErrorType, boolean>> = {
  ConnectionFailed: true,
  Timeout: true,
  ResourceNotFound: false,
  PermissionDenied: false,
  InvalidURI: true,
};

/** The JSON-RPC code MCP assigns to "resource not found" (spec, resources/read errors). */
const RESOURCE_NOT_FOUND_RPC_CODE = -32002;

/** Finds a numeric JSON-RPC code on an error, its `data` or its `cause` chain. */
function rpcCodeOf(error: unknown): number | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const record = current as {
      code?: unknown;
      data?: { code?: unknown; rpcCode?: unknown };
      cause?: unknown;
    };
    if (typeof record.code === 'number') return record.code;
    if (typeof record.data?.rpcCode === 'number') return record.data.rpcCode;
    if (typeof record.data?.code === 'number') return record.data.code;
    current = record.cause;
  }
  return undefined;
}

/**
 * Upstream servers report failures as free text, so a message is the only clue left when
 * the hub could not classify it; these patterns pick the router error type it most likely is.
 */
function codeFromMessage(message: string): McpToolsErrorCode | undefined {
  if (/not found|unknown resource|no such|does not exist|doesn't exist/i.test(message))
    return 'RESOURCE_NOT_FOUND';
  if (/permission|forbidden|denied|unauthori[sz]ed|not allowed/i.test(message)) return 'PERMISSION_DENIED';
  if (/invalid uri|malformed uri|invalid url/i.test(message)) return 'INVALID_URI';
  if (/timed? ?out/i.test(message)) return 'TIMEOUT';
  if (/not connected|connection closed|disconnected|ECONNREFUSED|EPIPE/i.test(message))
    return 'CONNECTION_FAILED';
  return undefined;
}

/** The router error type of an {@link McpToolsError} code. */
export function routerErrorType(code: McpToolsErrorCode): RouterErrorType {
  return typeByCode[code];
}

/**
 * Classifies anything thrown by the hub or a tool into a {@link RouterError}. Typed
 * {@link McpToolsError}s map through one table; upstream errors are refined by their
 * JSON-RPC code or message; anything else is an `UpstreamError`.
 */
export function classifyRouterError(error: unknown): RouterError {
  const message = error instanceof Error ? error.message : String(error);
  // Foreign errors (SDK, JSON-RPC, abort, network) are classified once, by the hub's classifier
  // (which knows the SDK's errors once the hub has loaded it).
  const classified = classifyForeignError(error);
  let code: McpToolsErrorCode = classified.code;
  let recoverable: boolean | undefined = classified.recoverable;
  if (code === 'UPSTREAM_ERROR') {
    // What the hub could only call an upstream error may still say what it is.
    const refined =
      rpcCodeOf(error) === RESOURCE_NOT_FOUND_RPC_CODE ? 'RESOURCE_NOT_FOUND' : codeFromMessage(message);
    if (refined) {
      code = refined;
      recoverable = undefined;
    }
  }
  const type = routerErrorType(code);
  return {
    type,
    code,
    msg: message,
    recoverable: recoverableByType[type] ?? recoverable ?? new McpToolsError(code, message).recoverable,
  };
}

/** A {@link RouterError} for a failure the router itself detects. */
export function routerError(code: McpToolsErrorCode, msg: string, recoverable?: boolean): RouterError {
  const type = routerErrorType(code);
  return {
    type,
    code,
    msg,
    recoverable: recoverable ?? recoverableByType[type] ?? new McpToolsError(code, msg).recoverable,
  };
}

/**
 * The one-line summary of each type (English), e.g. `resource not found:
 * file://x`. `target` is the URI, prompt or tool the call was about.
 */
export function routerErrorSummary(error: RouterError, target?: string): string {
  const suffix = target ? `: ${target}` : '';
  switch (error.type) {
    case 'ConnectionFailed':
      return 'MCP server connection failed (check configuration)';
    case 'Timeout':
      return 'request timed out';
    case 'ResourceNotFound':
      return `not found${suffix}`;
    case 'PermissionDenied':
      return `permission denied${suffix}`;
    case 'InvalidURI':
      return 'invalid URI format';
    case 'ToolNotFound':
      return `unknown tool${suffix}`;
    case 'InvalidArguments':
      return `invalid arguments${suffix}`;
    case 'Aborted':
      return 'request aborted';
    case 'ConfigInvalid':
      return 'invalid configuration';
    case 'UpstreamError':
      return `server error${suffix}`;
  }
}
