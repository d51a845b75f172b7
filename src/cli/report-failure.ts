import { McpToolsError } from '../errors/mcp-tools-error.js';
import { exitCodeFor } from './exit-codes.js';

/**
 * Writes a command's failure to stderr as one `mcptools: …` line (never a stack trace) and
 * returns the exit code the error's code maps to.
 */
export function reportFailure(error: unknown): number {
  const message = McpToolsError.isInstance(error)
    ? error.message
    : error instanceof Error
      ? error.message
      : String(error);
  process.stderr.write(`mcptools: ${message}\n`);
  return exitCodeFor(error);
}
