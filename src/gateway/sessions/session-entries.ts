import type { DownstreamSession } from './downstream-session.js';

/** A session a table holds with the transport that serves it (2025-era Streamable HTTP or SSE). */
export interface SessionEntry {
  session: DownstreamSession;
  transport: { close(): Promise<void> };
}

/** How many of `entries` belong to `principal`. */
export function countOf(entries: Iterable<SessionEntry>, principal: string): number {
  let count = 0;
  for (const entry of entries) if (entry.session.principal === principal) count++;
  return count;
}

/** The principals holding `entries`, with how many each holds. */
export function holdersOf(entries: Iterable<SessionEntry>): Map<string, number> {
  const held = new Map<string, number>();
  for (const { session } of entries) held.set(session.principal, (held.get(session.principal) ?? 0) + 1);
  return held;
}

/**
 * Ends the first of `entries` (the least recently used, in a `Map`'s order) with no call in
 * flight, of `principal` when given; `false` when every one has calls.
 */
export async function endIdleOf(entries: Iterable<SessionEntry>, principal?: string): Promise<boolean> {
  for (const entry of entries) {
    if (entry.session.calls.size > 0) continue;
    if (principal !== undefined && entry.session.principal !== principal) continue;
    await entry.transport.close();
    return true;
  }
  return false;
}
