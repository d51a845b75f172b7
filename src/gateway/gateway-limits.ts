import type { GatewayLimitsConfig } from '../config/gateway-limits-types.js';

/** Every limit of `gateway.limits`, with its default applied. */
export type GatewayLimits = Required<GatewayLimitsConfig>;

/**
 * `limits` with the defaults filled in. `principals`: the front door tells callers apart
 * (named tokens or OAuth); without one every caller is the same principal, so a
 * per-principal quota below the global cap would only lower the cap.
 */
export function resolveGatewayLimits(limits: GatewayLimitsConfig, principals: boolean): GatewayLimits {
  const sessions = limits.sessions ?? 1000;
  const listenStreams = limits.listenStreams ?? 1000;
  const eventBytes = limits.eventBytes ?? 256 * 1024 * 1024;
  const parkedCalls = limits.parkedCalls ?? 1000;
  const parkedScriptBytes = limits.parkedScriptBytes ?? 512 * 1024 * 1024;
  const scriptTasks = limits.scriptTasks ?? 200;
  const share = (total: number, fraction: number) =>
    principals ? Math.max(1, Math.floor(total * fraction)) : total;
  return {
    sessions,
    sessionsPerPrincipal: Math.min(limits.sessionsPerPrincipal ?? share(sessions, 0.1), sessions),
    sessionIdleMs: limits.sessionIdleMs ?? 6 * 60 * 60 * 1000,
    listenStreams,
    listenStreamsPerPrincipal: Math.min(
      limits.listenStreamsPerPrincipal ?? share(listenStreams, 0.1),
      listenStreams,
    ),
    eventBytes,
    eventBytesPerPrincipal: Math.min(limits.eventBytesPerPrincipal ?? share(eventBytes, 0.25), eventBytes),
    eventTtlMs: limits.eventTtlMs ?? 300_000,
    unlinkedParkMs: limits.unlinkedParkMs ?? 30_000,
    parkedCalls,
    parkedCallsPerPrincipal: Math.min(limits.parkedCallsPerPrincipal ?? share(parkedCalls, 0.1), parkedCalls),
    parkedScriptBytes,
    parkedScriptBytesPerPrincipal: Math.min(
      limits.parkedScriptBytesPerPrincipal ?? share(parkedScriptBytes, 0.25),
      parkedScriptBytes,
    ),
    scriptTasks,
    scriptTasksPerPrincipal: Math.min(limits.scriptTasksPerPrincipal ?? share(scriptTasks, 0.1), scriptTasks),
    scriptTaskTtlMs: limits.scriptTaskTtlMs ?? 60 * 60_000,
  };
}
