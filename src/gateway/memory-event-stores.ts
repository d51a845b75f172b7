import { randomBytes } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { SessionEventStores } from './session-event-stores.js';

/** Bounds of {@link MemoryEventStores}, per session. */
export interface MemoryEventStoresOptions {
  /** The most events kept per session; the oldest go first. Default 1000. */
  maxEvents?: number;
  /** The most bytes (of JSON) kept per session; the oldest events go first. Default 8 MiB. */
  maxBytes?: number;
  /** Events older than this many ms are dropped. Default 300 000 (5 minutes). */
  ttlMs?: number;
}

interface StoredEvent {
  readonly seq: number;
  readonly streamId: StreamId;
  readonly message: JSONRPCMessage;
  readonly at: number;
  readonly bytes: number;
}

/** A priming event: the SDK stores `{}` to mint the id a stream starts with. */
const isPriming = (message: JSONRPCMessage) => Object.keys(message).length === 0;

/** One session's events, in the order they were stored (a `Map` keeps insertion order). */
class SessionEventLog implements EventStore {
  /** Makes this session's event ids unlike any other session's. */
  readonly #prefix = randomBytes(6).toString('base64url');
  readonly #events = new Map<EventId, StoredEvent>();
  readonly #options: Required<MemoryEventStoresOptions>;
  #seq = 0;
  #bytes = 0;

  constructor(options: Required<MemoryEventStoresOptions>) {
    this.#options = options;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${this.#prefix}.${++this.#seq}`;
    const bytes = isPriming(message) ? 2 : JSON.stringify(message).length;
    this.#events.set(id, { seq: this.#seq, streamId, message, at: Date.now(), bytes });
    this.#bytes += bytes;
    this.#prune();
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    this.#prune();
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    if (last === undefined) throw new Error('unknown event id');
    const after = [...this.#events].filter(
      ([, event]) => event.seq > last.seq && event.streamId === last.streamId && !isPriming(event.message),
    );
    for (const [id, event] of after) await send(id, event.message);
    return last.streamId;
  }

  /** Drops what is past the age, count and size bounds, oldest first. */
  #prune(): void {
    const { maxEvents, maxBytes, ttlMs } = this.#options;
    const oldest = Date.now() - ttlMs;
    for (const [id, event] of this.#events) {
      if (this.#events.size <= maxEvents && this.#bytes <= maxBytes && event.at >= oldest) break;
      this.#events.delete(id);
      this.#bytes -= event.bytes;
    }
  }
}

/**
 * The gateway's default {@link SessionEventStores}: each session's events in this process's
 * memory, bounded per session (count, bytes, age), dropped with the session.
 */
export class MemoryEventStores implements SessionEventStores {
  readonly #logs = new Map<string, SessionEventLog>();
  readonly #options: Required<MemoryEventStoresOptions>;

  constructor(options: MemoryEventStoresOptions = {}) {
    this.#options = {
      maxEvents: options.maxEvents ?? 1000,
      maxBytes: options.maxBytes ?? 8 * 1024 * 1024,
      ttlMs: options.ttlMs ?? 300_000,
    };
  }

  forSession(sessionId: string): EventStore {
    let log = this.#logs.get(sessionId);
    if (log === undefined) {
      log = new SessionEventLog(this.#options);
      this.#logs.set(sessionId, log);
    }
    return log;
  }

  dropSession(sessionId: string): void {
    this.#logs.delete(sessionId);
  }

  /** Sessions with a log now (for tests and status). */
  get sessions(): number {
    return this.#logs.size;
  }
}
