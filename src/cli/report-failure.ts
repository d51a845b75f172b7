import { McpToolsError } from '../errors/mcp-tools-error.js';
import { exitCodeFor } from './exit-codes.js';

/**
 * Writes a command's failure to stderr as one `mcptools: …` line (never a stack trace) and
 * returns the exit code the error's code maps to. With `json` (`--json`), stdout gets the same
 * failure as one JSON document, `{ "error": { "code", "message" } }`: a script that reads stdout
 * never finds it empty.
 */
export function reportFailure(error: unknown, json = false): number {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`mcptools: ${message}\n`);
  const exitCode = exitCodeFor(error);
  if (json) writeFailureJson(McpToolsError.isInstance(error) ? error.code : 'ERROR', message, exitCode);
  return exitCode;
}

/** A failure as the JSON document `--json` promises on stdout. */
export function writeFailureJson(code: string, message: string, exitCode: number): void {
  process.stdout.write(`${JSON.stringify({ error: { code, message, exitCode } }, null, 2)}\n`);
}
