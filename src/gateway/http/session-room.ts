import { quotaRefusal } from './quota-refusal.js';

/** The 2025-era sessions of one HTTP transport, as the session quota counts and ends them. */
export interface SessionHolders {
  /** How many sessions `principal` holds. */
  count(principal: string): number;
  /** How many sessions there are in all. */
  readonly size: number;
  /** How many sessions each principal holds. */
  holders(): Map<string, number>;
  /** Ends the least recently used idle session (of `principal`, if given); whether one ended. */
  endIdle(principal?: string): Promise<boolean>;
}

/** The caps {@link makeSessionRoom} keeps. */
export interface SessionCaps {
  /** Sessions in all, both transports together. */
  sessions: number;
  /** Sessions of one principal. */
  sessionsPerPrincipal: number;
}

/**
 * Room for one more 2025-era session of `principal` (both 2025-era HTTP transports count), or
 * the refusal. A principal at its quota makes room among its own sessions only; at the global
 * cap, the principals holding the most sessions give up their least recently used idle one
 * first. Either way a principal whose sessions all have calls in flight is refused, never
 * anyone else.
 */
export async function makeSessionRoom(
  principal: string,
  transports: readonly [SessionHolders, SessionHolders],
  caps: SessionCaps,
  log: (line: string) => void,
): Promise<Response | undefined> {
  const [first, second] = transports;
  if (first.count(principal) + second.count(principal) >= caps.sessionsPerPrincipal) {
    if (!(await first.endIdle(principal)) && !(await second.endIdle(principal)))
      return quotaRefusal(
        'sessions_per_principal',
        `Too many sessions with calls in flight for this caller (at most ${caps.sessionsPerPrincipal})`,
      );
    log(
      `http: ended a caller's least recently used session: more than ${caps.sessionsPerPrincipal} of its own`,
    );
    return undefined;
  }
  if (first.size + second.size < caps.sessions) return undefined;
  const held = first.holders();
  for (const [holder, count] of second.holders()) held.set(holder, (held.get(holder) ?? 0) + count);
  for (const [holder] of [...held].sort((a, b) => b[1] - a[1]))
    if ((await first.endIdle(holder)) || (await second.endIdle(holder))) {
      log(
        `http: ended the least recently used session of the largest holder: more than ${caps.sessions} sessions`,
      );
      return undefined;
    }
  return quotaRefusal('sessions', 'Too many sessions with calls in flight');
}
