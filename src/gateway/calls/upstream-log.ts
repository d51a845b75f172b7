import type { LoggingLevel } from '@modelcontextprotocol/server';
import { currentCaller } from '../../mcp/caller-scope.js';
import type { DownstreamSession } from '../sessions/downstream-session.js';

const SEVERITY: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/** An upstream `notifications/message`, its logger already prefixed with the server name. */
export interface UpstreamLog {
  level: LoggingLevel;
  logger: string;
  data: unknown;
}

/**
 * A call in flight as a log reaches it: its session, and its own request's stream while the
 * call runs (the gateway's `DownstreamCall`).
 */
export interface LoggedCall {
  readonly session: DownstreamSession;
  logTo: ((level: LoggingLevel, data: unknown, logger: string) => Promise<void>) | undefined;
}

/** Sends to a 2025-era session at or above its level: on `call`'s own stream when given, else unsolicited. */
export function sendToSession(
  session: DownstreamSession,
  server: string,
  log: UpstreamLog,
  call?: LoggedCall,
): void {
  if (session.allowsServer?.(server) === false) return;
  if (session.logLevel === undefined || (SEVERITY[log.level] ?? 0) < SEVERITY[session.logLevel]) return;
  const sent = call?.logTo?.(log.level, log.data, log.logger) ?? session.server?.sendLoggingMessage(log);
  void sent?.catch(() => {});
}

/** Sends to a 2026-07-28 call's own request, at the level its envelope asked for. */
export function sendToCall(call: LoggedCall, server: string, log: UpstreamLog): void {
  if (call.session.allowsServer?.(server) === false) return;
  // The request's own envelope level (`io.modelcontextprotocol/logLevel`) decides; none, no logs.
  void call.logTo?.(log.level, log.data, log.logger).catch(() => {});
}

/**
 * Routes an upstream log message to the downstream clients that asked for logs, each at its
 * own level: a 2025-era session by `logging/setLevel` (on its session), a 2026-07-28 request
 * by the log level in its envelope (on that request's stream, while its call runs). A message
 * the protocol links to one call (it arrived on that call's own stream) goes to that call's
 * client only (on that call's stream, in both eras); any other goes to every client that asked
 * and whose profile admits `server`.
 */
export function routeUpstreamLog(
  server: string,
  log: UpstreamLog,
  sessions: Iterable<DownstreamSession>,
  calls: Iterable<LoggedCall>,
): void {
  // Read from the async context of the upstream's message (the SDK's, not ours to choose).
  const upstream = currentCaller()?.upstream;
  if (upstream !== undefined) {
    upstream.log(server, log);
    return;
  }
  for (const session of sessions) if (session.era === '2025') sendToSession(session, server, log);
  for (const call of calls) if (call.session.era === '2026-07-28') sendToCall(call, server, log);
}
