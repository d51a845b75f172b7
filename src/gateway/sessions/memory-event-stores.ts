import { randomBytes } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { SessionEventStores } from './session-event-stores.js';

/** Bounds of {@link MemoryEventStores}: per session, per principal and in all. */
export interface MemoryEventStoresOptions {
  /** The most events kept per session; the oldest go first. Default 1000. */
  maxEvents?: number;
  /** The most bytes (UTF-8 JSON) kept per session; the oldest events go first. Default 8 MiB. */
  maxBytes?: number;
  /** The most bytes kept for the sessions of one principal; its oldest events go first. Default `maxTotalBytes`. */
  maxBytesPerPrincipal?: number;
  /** The most bytes kept in all; the oldest events of any session go first. Default 256 MiB. */
  maxTotalBytes?: number;
  /** Events older than this many ms are dropped. Default 300 000 (5 minutes). */
  ttlMs?: number;
  /**
   * How often events past their age are dropped, in ms, whether or not their session is
   * used again (an unref'd timer: it never keeps the process alive). Default: a tenth of
   * `ttlMs`, between 1 s and 30 s.
   */
  pruneIntervalMs?: number;
}

/** One event: its JSON text only (the parsed message is not kept beside it), and its UTF-8 size. */
interface StoredEvent {
  readonly id: EventId;
  readonly seq: number;
  readonly streamId: StreamId;
  readonly json: string;
  readonly at: number;
  readonly bytes: number;
  readonly log: SessionEventLog;
}

/** The SDK stores `{}` to mint the id a stream starts with: kept (its id must resolve), never replayed. */
const PRIMING = '{}';

/** Events in the order they were stored (a `Map` keeps insertion order), with their bytes. */
class EventQueue {
  readonly events = new Map<EventId, StoredEvent>();
  bytes = 0;

  add(event: StoredEvent): void {
    this.events.set(event.id, event);
    this.bytes += event.bytes;
  }

  delete(event: StoredEvent): void {
    if (this.events.delete(event.id)) this.bytes -= event.bytes;
  }

  oldest(): StoredEvent | undefined {
    for (const event of this.events.values()) return event;
    return undefined;
  }
}

/** What the logs of one {@link MemoryEventStores} share: the queues of every event, by principal and in all. */
interface SharedQueues {
  readonly all: EventQueue;
  principal(name: string): EventQueue;
  settle(name: string): void;
  drop(event: StoredEvent): void;
}

/** One session's events. */
class SessionEventLog implements EventStore {
  /** Makes this session's event ids unlike any other session's. */
  readonly #prefix = randomBytes(6).toString('base64url');
  readonly own = new EventQueue();
  readonly principal: string;
  readonly #options: Required<MemoryEventStoresOptions>;
  readonly #shared: SharedQueues;
  #seq = 0;

  constructor(principal: string, options: Required<MemoryEventStoresOptions>, shared: SharedQueues) {
    this.principal = principal;
    this.#options = options;
    this.#shared = shared;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${this.#prefix}.${++this.#seq}`;
    // The one serialization made here is what is kept, and its UTF-8 length is what is counted.
    const json = JSON.stringify(message);
    const event: StoredEvent = {
      id,
      seq: this.#seq,
      streamId,
      json,
      at: Date.now(),
      bytes: Buffer.byteLength(json),
      log: this,
    };
    this.own.add(event);
    this.#shared.principal(this.principal).add(event);
    this.#shared.all.add(event);
    this.#bound();
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const event = this.own.events.get(eventId);
    if (event === undefined || event.at < Date.now() - this.#options.ttlMs) return undefined;
    return event.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.own.events.get(lastEventId);
    if (last === undefined) throw new Error('unknown event id');
    const after = [...this.own.events.values()].filter(
      (event) => event.seq > last.seq && event.streamId === last.streamId && event.json !== PRIMING,
    );
    for (const event of after) await send(event.id, JSON.parse(event.json) as JSONRPCMessage);
    return last.streamId;
  }

  /** Drops this session's, its principal's and everyone's oldest events until each is within its bounds. */
  #bound(): void {
    const { maxEvents, maxBytes, maxBytesPerPrincipal, maxTotalBytes } = this.#options;
    const own = this.own;
    while (own.events.size > maxEvents || own.bytes > maxBytes) this.#shared.drop(own.oldest()!);
    const principal = this.#shared.principal(this.principal);
    while (principal.bytes > maxBytesPerPrincipal) this.#shared.drop(principal.oldest()!);
    const all = this.#shared.all;
    while (all.bytes > maxTotalBytes) this.#shared.drop(all.oldest()!);
    this.#shared.settle(this.principal);
  }
}

/**
 * The gateway's default {@link SessionEventStores}: each session's events in this process's
 * memory, as their JSON text, bounded per session (count, bytes, age), per principal and in
 * all (bytes), dropped with the session. Events past their age are dropped by a timer, so an
 * idle session's events go too: its resumable streams were for a client that comes back
 * within seconds, not hours.
 */
export class MemoryEventStores implements SessionEventStores {
  readonly #logs = new Map<string, SessionEventLog>();
  readonly #options: Required<MemoryEventStoresOptions>;
  readonly #all = new EventQueue();
  readonly #principals = new Map<string, EventQueue>();
  readonly #shared: SharedQueues;
  readonly #timer: NodeJS.Timeout;

  constructor(options: MemoryEventStoresOptions = {}) {
    const ttlMs = options.ttlMs ?? 300_000;
    const maxTotalBytes = options.maxTotalBytes ?? 256 * 1024 * 1024;
    this.#options = {
      maxEvents: options.maxEvents ?? 1000,
      maxBytes: options.maxBytes ?? 8 * 1024 * 1024,
      maxBytesPerPrincipal: options.maxBytesPerPrincipal ?? maxTotalBytes,
      maxTotalBytes,
      ttlMs,
      pruneIntervalMs: options.pruneIntervalMs ?? Math.min(30_000, Math.max(1000, ttlMs / 10)),
    };
    const principals = this.#principals;
    const all = this.#all;
    this.#shared = {
      all,
      principal(name) {
        let queue = principals.get(name);
        if (queue === undefined) {
          queue = new EventQueue();
          principals.set(name, queue);
        }
        return queue;
      },
      settle(name) {
        if (principals.get(name)?.events.size === 0) principals.delete(name);
      },
      drop(event) {
        event.log.own.delete(event);
        principals.get(event.log.principal)?.delete(event);
        all.delete(event);
      },
    };
    this.#timer = setInterval(() => this.prune(), this.#options.pruneIntervalMs);
    this.#timer.unref();
  }

  forSession(sessionId: string, principal = ''): EventStore {
    let log = this.#logs.get(sessionId);
    if (log === undefined) {
      log = new SessionEventLog(principal, this.#options, this.#shared);
      this.#logs.set(sessionId, log);
    }
    return log;
  }

  dropSession(sessionId: string): void {
    const log = this.#logs.get(sessionId);
    if (log === undefined) return;
    this.#logs.delete(sessionId);
    for (const event of [...log.own.events.values()]) this.#shared.drop(event);
    this.#shared.settle(log.principal);
  }

  /** Drops every event past its age now (the timer calls it; oldest first, so it stops at the first young one). */
  prune(): void {
    const oldest = Date.now() - this.#options.ttlMs;
    for (const event of this.#all.events.values()) {
      if (event.at >= oldest) break;
      this.#shared.drop(event);
      this.#shared.settle(event.log.principal);
    }
  }

  /** Stops the prune timer (the events stay until dropped). */
  close(): void {
    clearInterval(this.#timer);
  }

  /** Sessions with a log now (for tests and status). */
  get sessions(): number {
    return this.#logs.size;
  }

  /** Events kept now, in all. */
  get events(): number {
    return this.#all.events.size;
  }

  /** Bytes (UTF-8 JSON) of the events kept now, in all, or of `principal`'s sessions. */
  bytes(principal?: string): number {
    return principal === undefined ? this.#all.bytes : (this.#principals.get(principal)?.bytes ?? 0);
  }
}
