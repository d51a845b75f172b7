import type { Command } from 'commander';
import type { SessionOptions } from '../open-session.js';

/** Options every command accepts. */
export interface GlobalOptions {
  config?: string;
  json?: boolean;
  connectTimeout?: number;
}

/** The global options as parsed for `command` (its own and the program's). */
export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** The session options a command's global options describe. */
export function sessionOptions(options: GlobalOptions): SessionOptions {
  return {
    ...(options.config ? { config: options.config } : {}),
    ...(options.connectTimeout ? { connectTimeoutMs: options.connectTimeout } : {}),
  };
}
