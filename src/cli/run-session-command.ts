import type { Command } from 'commander';
import { type GlobalOptions, globalOptions, sessionOptions } from './commands/global-options.js';
import { startConnectProgress } from './connect-progress.js';
import { keepStdoutClean } from './keep-stdout-clean.js';
import { openSession, type Session, type SessionOptions } from './open-session.js';
import { reportFailure } from './report-failure.js';
import { watchInterrupts } from './watch-interrupts.js';

/** What a command body gets: its session, the global options and the interrupt signal. */
export interface SessionCommandContext {
  session: Session;
  options: GlobalOptions;
  /** Aborts on SIGINT or SIGTERM; pass it to every call so the cancel reaches the server. */
  signal: AbortSignal;
}

/**
 * Runs a command that talks to servers: connects them (with live progress on a terminal),
 * runs `body`, and always closes every server it started — also on SIGINT and SIGTERM, which
 * abort the connects or the call in flight and end the process with 130 or 143. `body`
 * returns the exit code (default 0).
 */
export async function runSessionCommand(
  command: Command,
  body: (context: SessionCommandContext) => Promise<number | undefined>,
  extra: Partial<SessionOptions> = {},
): Promise<void> {
  keepStdoutClean();
  const options = globalOptions(command);
  using interrupts = watchInterrupts();
  const progress = await startConnectProgress(options);
  let session: Session | undefined;
  try {
    session = await openSession({
      ...sessionOptions(options),
      ...extra,
      signal: interrupts.signal,
      onStatus: (status) => progress.onStatus(status),
    });
    progress.stop();
    process.exitCode = (await body({ session, options, signal: interrupts.signal })) ?? 0;
  } catch (error) {
    progress.stop();
    const code = reportFailure(error, options.json === true);
    process.exitCode = interrupts.exitCode() ?? code;
  } finally {
    await session?.close();
    const interrupted = interrupts.exitCode();
    if (interrupted !== undefined) process.exitCode = interrupted;
  }
}
