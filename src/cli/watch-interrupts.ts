import { McpToolsError } from '../errors/mcp-tools-error.js';
import { ExitCode } from './exit-codes.js';

/** What {@link watchInterrupts} hands a command. */
export interface Interrupts extends Disposable {
  /** Aborts on the first SIGINT or SIGTERM, with an `ABORTED` error as its reason. */
  signal: AbortSignal;
  /** The exit code the signal received asks for (130 for SIGINT, 143 for SIGTERM), once one came. */
  exitCode(): number | undefined;
}

/** How long cleanup may take after a signal before the process exits anyway. */
const CLEANUP_GRACE_MS = 10_000;

/**
 * Turns SIGINT and SIGTERM into an abort of the running command, so that it can cancel its
 * call upstream and close every server it started (no child process survives).
 * A second signal does not kill the process mid-cleanup; a cleanup that hangs past 10 s does.
 */
export function watchInterrupts(): Interrupts {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  let forceExit: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) return;
    received = signal;
    const text = signal === 'SIGINT' ? 'Interrupted (Ctrl-C)' : 'Terminated (SIGTERM)';
    controller.abort(new McpToolsError('ABORTED', text));
    forceExit = setTimeout(() => process.exit(exitCodeOf(signal)), CLEANUP_GRACE_MS);
    forceExit.unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    exitCode: () => (received ? exitCodeOf(received) : undefined),
    [Symbol.dispose]() {
      // The handlers stay until the process ends once a signal came: a late signal must not kill cleanup.
      if (received) return;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (forceExit) clearTimeout(forceExit);
    },
  };
}

function exitCodeOf(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated;
}
