import type { SecretRedactor } from '../config/secret-redactor.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { classifyError } from './classify-error.js';
import type { ConnectionConfig } from './in-process-server.js';
import type { StderrTail } from './stderr-tail.js';

/**
 * What one server left behind for error messages: the stderr tail of the current attempt and
 * the last transport error (garbage on stdout, a broken stream). Built by its connection when a
 * message is needed (a connection keeps the parts, not this object).
 */
export interface ConnectionDiagnostics {
  server: string;
  config: ConnectionConfig;
  /** Hides the server's configured secrets in every message built here. */
  redactor: SecretRedactor;
  /** The stderr tail of the current attempt (none before the first). */
  stderr: StderrTail | undefined;
  transportError: string | undefined;
}

/** `message` followed by the last transport error and the stderr tail, all redacted. */
export function describeWithDiagnostics(diagnostics: ConnectionDiagnostics, message: string): string {
  const { redactor, transportError } = diagnostics;
  let text = redactor.text(message);
  // A failed spawn is both the connect's error and the transport's: say it once.
  if (transportError && !message.includes(transportError))
    text += `; last transport error: ${redactor.text(transportError)}`;
  const tail = diagnostics.stderr?.text(redactor);
  if (tail) text += `; stderr: ${tail}`;
  return text;
}

/** The error of a connection that went away while connected. */
export function exitError(diagnostics: ConnectionDiagnostics): McpToolsError {
  const what = diagnostics.config.type === 'stdio' ? 'the server process exited' : 'the connection closed';
  return new McpToolsError('SERVER_DISCONNECTED', describeWithDiagnostics(diagnostics, what), {
    data: { server: diagnostics.server },
  });
}

/** Classifies a failed connect attempt: `TIMEOUT`, `PERMISSION_DENIED` or `CONNECTION_FAILED` (or `ABORTED`). */
export function connectError(
  diagnostics: ConnectionDiagnostics,
  error: unknown,
  deadline: AbortSignal,
  timeoutMs: number,
): McpToolsError {
  const classified = classifyError(error, { operation: 'connect', signal: deadline, timeoutMs });
  if (classified.code === 'ABORTED') return classified;
  const code =
    classified.code === 'TIMEOUT' || classified.code === 'PERMISSION_DENIED'
      ? classified.code
      : 'CONNECTION_FAILED';
  const exited =
    diagnostics.config.type === 'stdio' ? 'the server process exited' : 'the server closed the connection';
  const base =
    code === 'TIMEOUT'
      ? `connect timed out after ${timeoutMs} ms`
      : classified.code === 'SERVER_DISCONNECTED'
        ? `connect failed: ${exited} before the handshake completed`
        : `connect failed: ${classified.message}`;
  const stderr = diagnostics.stderr?.text(diagnostics.redactor);
  return new McpToolsError(code, describeWithDiagnostics(diagnostics, base), {
    cause: error,
    data: { server: diagnostics.server, ...(stderr ? { stderr } : {}) },
    // A command that does not exist will not appear by retrying the call (retries go on anyway).
    ...(hasErrnoCode(error, 'ENOENT') || hasErrnoCode(error, 'EACCES') ? { recoverable: false } : {}),
  });
}

/** `true` when `error` or one of its causes is a system error with `code` (spawn ENOENT). */
function hasErrnoCode(error: unknown, code: string): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if ((current as NodeJS.ErrnoException).code === code) return true;
    current = current.cause;
  }
  return false;
}
