/**
 * `gateway.limits` in `mcptools.json`: what `serve --http` holds at most, in all and per
 * principal. A per-principal quota defaults to the global cap when the gateway has no named
 * tokens and no OAuth front door (every caller is then one principal), and to a tenth of it
 * (a quarter for event bytes) otherwise. Read when the gateway starts.
 */
export interface GatewayLimitsConfig {
  /** 2025-era HTTP sessions (Streamable HTTP and HTTP+SSE) kept at once. Default 1000. */
  sessions?: number;
  /** 2025-era sessions one principal may hold. Default 100 with a front door, else `sessions`. */
  sessionsPerPrincipal?: number;
  /**
   * A 2025-era session unused this long (and with no call in flight) is ended. Default 6 hours:
   * its record is small, and an SDK v2 client does not recover from the 404 an ended one gets.
   */
  sessionIdleMs?: number;
  /** 2026-07-28 `subscriptions/listen` streams open at once. Default 1000. */
  listenStreams?: number;
  /** Listen streams one principal may hold open. Default 100 with a front door, else `listenStreams`. */
  listenStreamsPerPrincipal?: number;
  /** Bytes (UTF-8 JSON) of resumable stream events kept in memory, in all. Default 256 MiB. */
  eventBytes?: number;
  /** Event bytes one principal's sessions may keep. Default 64 MiB with a front door, else `eventBytes`. */
  eventBytesPerPrincipal?: number;
  /** How long a stream event is kept for a client's resumption, in ms. Default 300 000 (5 minutes). */
  eventTtlMs?: number;
  /**
   * How long a 2026-07-28 call stays parked when the upstream asking it for input cannot link
   * its requests to calls (a 2025-era stdio server): while it is parked, that upstream's
   * requests for other sessions' calls are refused. Default 30 000.
   */
  unlinkedParkMs?: number;
  /**
   * 2026-07-28 calls parked at once, waiting for their clients' answers (each holds an upstream
   * request open). Beyond it, the caller holding the most parked calls loses its oldest. Default 1000.
   */
  parkedCalls?: number;
  /** Parked calls of one principal; beyond it, its own oldest is cancelled. Default 100 with a front door, else `parkedCalls`. */
  parkedCallsPerPrincipal?: number;
  /**
   * Bytes held by code-mode scripts waiting for their callers' answers (an approval), each
   * counted by what its sandbox holds when it starts waiting. At it, new scripts are refused
   * (429, `Retry-After`) and none parks. Default 512 MiB.
   */
  parkedScriptBytes?: number;
  /** The same for one principal's scripts. Default 128 MiB with a front door, else `parkedScriptBytes`. */
  parkedScriptBytesPerPrincipal?: number;
  /**
   * `run_script` calls the gateway runs as tasks (a caller asked for one), alive at once until
   * their results expire; at it, a new task is refused (`-32600` naming the limit). Default 200.
   */
  scriptTasks?: number;
  /** The same for one principal. Default 20 with a front door, else `scriptTasks`. */
  scriptTasksPerPrincipal?: number;
  /** How long a script task and its result are kept after it was created (at most; a caller may ask for less). Default 1 hour. */
  scriptTaskTtlMs?: number;
}
