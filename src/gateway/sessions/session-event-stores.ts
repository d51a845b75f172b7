import type { EventStore } from '@modelcontextprotocol/server';

/**
 * Where the gateway's 2025-era Streamable HTTP sessions keep the events of their response
 * streams, so that a client that lost a stream gets the rest with `Last-Event-ID` (the SDK's
 * {@link EventStore}, one per session). The store of a session is its namespace and its
 * security boundary: the SDK's replay does not check who asks, so an event id minted for one
 * session must be unknown to every other session's store (`getStreamIdForEventId` answers
 * `undefined`, and the SDK refuses the resumption with 400).
 *
 * The gateway's default is {@link MemoryEventStores} (one process); cluster mode puts a shared
 * store (Redis) behind the same interface.
 */
export interface SessionEventStores {
  /**
   * The event store of session `sessionId` (asked once per session, when it opens or is adopted);
   * `principal` is who opened it (a shared store namespaces by it too).
   */
  forSession(sessionId: string, principal?: string): EventStore;
  /** Session `sessionId` ended: its events can go. */
  dropSession(sessionId: string, principal?: string): void | Promise<void>;
}
