/** Every string code an {@link McpToolsError} can carry. */
export type McpToolsErrorCode =
  | 'CONNECTION_FAILED'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'SERVER_DISCONNECTED'
  | 'RESOURCE_NOT_FOUND'
  | 'PERMISSION_DENIED'
  | 'INVALID_URI'
  | 'TOOL_NOT_FOUND'
  | 'INVALID_ARGUMENTS'
  | 'UPSTREAM_ERROR'
  | 'CONFIG_INVALID';

const brand = Symbol.for('mcptools.error');

/** Codes whose failures are worth retrying as they are. */
const recoverableCodes: ReadonlySet<McpToolsErrorCode> = new Set([
  'CONNECTION_FAILED',
  'TIMEOUT',
  'ABORTED',
  'SERVER_DISCONNECTED',
  'INVALID_URI',
  'INVALID_ARGUMENTS',
]);

/** Options of {@link McpToolsError}. */
export interface McpToolsErrorOptions {
  cause?: unknown;
  data?: Record<string, unknown>;
  /** Overrides the default recoverability of the code (used for `UPSTREAM_ERROR`). */
  recoverable?: boolean;
}

/**
 * The one local error class of mcptools: a string `code`, a `cause` (the foreign error it
 * classifies) and structured `data`. Upstream JSON-RPC errors are kept as `cause`.
 */
export class McpToolsError extends Error {
  readonly [brand] = true;
  readonly code: McpToolsErrorCode;
  readonly data: Record<string, unknown>;
  readonly recoverable: boolean;

  constructor(code: McpToolsErrorCode, message: string, options: McpToolsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'McpToolsError';
    this.code = code;
    this.data = options.data ?? {};
    this.recoverable = options.recoverable ?? recoverableCodes.has(code);
  }

  /** `true` for an {@link McpToolsError} from any copy of this package. */
  static isInstance(value: unknown): value is McpToolsError {
    return typeof value === 'object' && value !== null && brand in value;
  }

  /** A JSON-safe view for logs, status and router results. */
  toJSON(): {
    code: McpToolsErrorCode;
    message: string;
    recoverable: boolean;
    data: Record<string, unknown>;
  } {
    return { code: this.code, message: this.message, recoverable: this.recoverable, data: this.data };
  }
}
