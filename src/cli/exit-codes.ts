import { McpToolsError, type McpToolsErrorCode } from '../errors/mcp-tools-error.js';

/** Exit codes of the `mcptools` binary. */
export const ExitCode = {
  success: 0,
  /** The tool ran and returned `isError`. */
  toolError: 1,
  /** Bad usage or configuration: nothing was attempted. */
  usage: 2,
  /** Interrupted by SIGINT. */
  interrupted: 130,
} as const;

/** The one table from error codes to exit codes (STYLE.md, "Errors"). */
const exitCodeByErrorCode: Record<McpToolsErrorCode, number> = {
  CONFIG_INVALID: ExitCode.usage,
  INVALID_ARGUMENTS: ExitCode.usage,
  TOOL_NOT_FOUND: ExitCode.usage,
  CONNECTION_FAILED: ExitCode.toolError,
  TIMEOUT: ExitCode.toolError,
  ABORTED: ExitCode.interrupted,
  SERVER_DISCONNECTED: ExitCode.toolError,
  RESOURCE_NOT_FOUND: ExitCode.toolError,
  PERMISSION_DENIED: ExitCode.toolError,
  INVALID_URI: ExitCode.usage,
  UPSTREAM_ERROR: ExitCode.toolError,
};

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): number {
  if (McpToolsError.isInstance(error)) return exitCodeByErrorCode[error.code];
  return ExitCode.toolError;
}
