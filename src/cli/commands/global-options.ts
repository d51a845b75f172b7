import type { SessionOptions } from '../open-session.js';

/** Options every command accepts. */
export interface GlobalOptions {
  config?: string;
  json?: boolean;
  connectTimeout?: number;
}

/** The session options a command's global options describe. */
export function sessionOptions(options: GlobalOptions): SessionOptions {
  return {
    ...(options.config ? { config: options.config } : {}),
    ...(options.connectTimeout ? { connectTimeoutMs: options.connectTimeout } : {}),
  };
}
