import { McpToolsError, type McpToolsErrorCode } from '../errors/mcp-tools-error.js';

/** Exit codes of the `mcptools` binary: the one table the README repeats. */
export const ExitCode = {
  success: 0,
  /** The tool ran and returned `isError` (or the server answered the request with an error). */
  toolError: 1,
  /** Bad usage or configuration: nothing was attempted. */
  usage: 2,
  /** A server could not be reached, or a server the command needs is not connected. */
  connection: 3,
  /** A connect or call timeout fired. */
  timeout: 4,
  /** Cancelled by Ctrl-C (SIGINT). */
  interrupted: 130,
  /** Stopped by SIGTERM (128 + 15, the shell convention). */
  terminated: 143,
} as const;

/** The one table from error codes to exit codes (STYLE.md, "Errors"). */
const exitCodeByErrorCode: Record<McpToolsErrorCode, number> = {
  CONFIG_INVALID: ExitCode.usage,
  INVALID_ARGUMENTS: ExitCode.usage,
  TOOL_NOT_FOUND: ExitCode.usage,
  INVALID_URI: ExitCode.usage,
  CONNECTION_FAILED: ExitCode.connection,
  SERVER_DISCONNECTED: ExitCode.connection,
  TIMEOUT: ExitCode.timeout,
  ABORTED: ExitCode.interrupted,
  RESOURCE_NOT_FOUND: ExitCode.toolError,
  PERMISSION_DENIED: ExitCode.toolError,
  UPSTREAM_ERROR: ExitCode.toolError,
};

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): number {
  if (McpToolsError.isInstance(error)) return exitCodeByErrorCode[error.code];
  return ExitCode.toolError;
}

/** Error codes a failed result carries that say more than "the tool returned an error". */
const resultCodes: ReadonlySet<McpToolsErrorCode> = new Set([
  'TIMEOUT',
  'ABORTED',
  'CONNECTION_FAILED',
  'SERVER_DISCONNECTED',
  'INVALID_ARGUMENTS',
  'TOOL_NOT_FOUND',
]);

/**
 * The exit code of a finished call: 0, or 1 when the tool returned an error — unless the
 * result's `details.code` says the call timed out (4), was cancelled (130), never reached a
 * connected server (3) or had invalid arguments (2).
 */
export function exitCodeForResult(result: { isError?: boolean; details?: unknown }): number {
  if (!result.isError) return ExitCode.success;
  const code = (result.details as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && resultCodes.has(code as McpToolsErrorCode))
    return exitCodeByErrorCode[code as McpToolsErrorCode];
  return ExitCode.toolError;
}
