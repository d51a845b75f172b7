import type { ServerConfig } from '../config/config-types.js';
import type { SecretRedactor } from '../config/secret-redactor.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { classifyError } from './classify-error.js';
import { StderrTail } from './stderr-tail.js';

/**
 * What one server left behind for error messages: the stderr tail of the current attempt
 * and the last transport error (garbage on stdout, a broken stream). Every message it
 * builds has the server's configured secrets redacted.
 */
export class ConnectionDiagnostics {
  readonly #server: string;
  readonly #config: ServerConfig;
  readonly #redactor: SecretRedactor;
  #stderr: StderrTail;
  #transportError: string | undefined;

  constructor(server: string, config: ServerConfig, redactor: SecretRedactor) {
    this.#server = server;
    this.#config = config;
    this.#redactor = redactor;
    this.#stderr = new StderrTail(redactor);
  }

  /**
   * Starts a new attempt: a fresh stderr tail (returned, for the transport) and no transport
   * error. The last attempt's tail is closed (its child is gone or going).
   */
  nextAttempt(): StderrTail {
    this.#stderr.close();
    this.#stderr = new StderrTail(this.#redactor);
    this.#transportError = undefined;
    return this.#stderr;
  }

  /** Closes the stderr tail's file: the connection is closed and its messages are built. */
  close(): void {
    this.#stderr.close();
  }

  /** Remembers the latest transport error for the next message. */
  noteTransportError(message: string): void {
    this.#transportError = message;
  }

  /** `text` with secrets replaced by `***`. */
  redact(text: string): string {
    return this.#redactor.text(text);
  }

  /** `message` followed by the last transport error and the stderr tail, all redacted. */
  describe(message: string): string {
    let text = this.redact(message);
    if (this.#transportError) text += `; last transport error: ${this.redact(this.#transportError)}`;
    const tail = this.#stderr.text();
    if (tail) text += `; stderr: ${tail}`;
    return text;
  }

  /** The error of a connection that went away while connected. */
  exitError(): McpToolsError {
    const what = this.#config.type === 'stdio' ? 'the server process exited' : 'the connection closed';
    return new McpToolsError('SERVER_DISCONNECTED', this.describe(what), { data: { server: this.#server } });
  }

  /** Classifies a failed connect attempt: `TIMEOUT`, `PERMISSION_DENIED` or `CONNECTION_FAILED` (or `ABORTED`). */
  connectError(error: unknown, deadline: AbortSignal, timeoutMs: number): McpToolsError {
    const classified = classifyError(error, { operation: 'connect', signal: deadline, timeoutMs });
    if (classified.code === 'ABORTED') return classified;
    const code =
      classified.code === 'TIMEOUT' || classified.code === 'PERMISSION_DENIED'
        ? classified.code
        : 'CONNECTION_FAILED';
    const exited =
      this.#config.type === 'stdio' ? 'the server process exited' : 'the server closed the connection';
    const base =
      code === 'TIMEOUT'
        ? `connect timed out after ${timeoutMs} ms`
        : classified.code === 'SERVER_DISCONNECTED'
          ? `connect failed: ${exited} before the handshake completed`
          : `connect failed: ${classified.message}`;
    const stderr = this.#stderr.text();
    return new McpToolsError(code, this.describe(base), {
      cause: error,
      data: { server: this.#server, ...(stderr ? { stderr } : {}) },
      // A command that does not exist will not appear by retrying the call (retries go on anyway).
      ...(hasErrnoCode(error, 'ENOENT') || hasErrnoCode(error, 'EACCES') ? { recoverable: false } : {}),
    });
  }
}

/** `true` when `error` or one of its causes is a system error with `code` (spawn ENOENT). */
function hasErrnoCode(error: unknown, code: string): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if ((current as NodeJS.ErrnoException).code === code) return true;
    current = current.cause;
  }
  return false;
}
