import { createHash } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { ClusterNode } from './cluster-node.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** Bounds of {@link RedisEventStores}, per session. */
export interface RedisEventStoresOptions {
  /** About this many events are kept per session (`XADD MAXLEN ~`). Default 1000. */
  maxEvents?: number;
  /**
   * A session's events go this long after its last one (at least nine tenths of it: the time to
   * live is renewed every tenth of it while events come). Default 300 000 ms (5 minutes).
   */
  ttlMs?: number;
}

/** A priming event: the SDK stores `{}` to mint the id a stream starts with. */
const isPriming = (message: JSONRPCMessage) => Object.keys(message).length === 0;

/** How many of its own latest events a session's store remembers the stream of (no Redis read for them). */
const REMEMBERED_EVENTS = 64;

/** `XRANGE`'s reply as `[entry id, fields]` pairs. */
type Entries = [string, string[]][];

function fieldsOf(fields: string[]): { stream: string; message: string } {
  const read: Record<string, string> = {};
  for (let index = 0; index + 1 < fields.length; index += 2) read[fields[index]!] = fields[index + 1]!;
  return { stream: read.s ?? '', message: read.m ?? '{}' };
}

/**
 * One session's events in a Redis stream (`events:<principal>:<session>`): any replica can
 * replay them, so a client that lost a response stream resumes it with `Last-Event-ID` wherever
 * the balancer sends it. An event id is `<session tag>.<entry id>`; the tag is derived from the
 * session, so another session's id names nothing here (the SDK's replay checks no owner).
 */
class RedisSessionEvents implements EventStore {
  readonly #redis: RedisConnection;
  readonly #key: string;
  readonly #tag: string;
  readonly #maxEvents: string;
  readonly #ttlMs: string;
  /** When the key's time to live was last renewed (ms since the epoch; 0: never by this store). */
  #renewedAt = 0;
  readonly #renewEveryMs: number;
  /** The stream of each of the latest events stored here, by entry id, oldest first. */
  readonly #streams = new Map<string, StreamId>();
  #unstored = 0;

  constructor(
    redis: RedisConnection,
    key: string,
    sessionId: string,
    options: Required<RedisEventStoresOptions>,
  ) {
    this.#redis = redis;
    this.#key = key;
    this.#tag = createHash('sha256').update(key).update(sessionId).digest('base64url').slice(0, 10);
    this.#maxEvents = String(options.maxEvents);
    this.#ttlMs = String(options.ttlMs);
    this.#renewEveryMs = options.ttlMs / 10;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // The time to live rolls with the events, renewed at most every tenth of it (not per event):
    // a 2025 call stores two events (its priming event and its answer), each one command.
    const now = Date.now();
    const renew = now - this.#renewedAt >= this.#renewEveryMs;
    if (renew) this.#renewedAt = now;
    // Sent together: one round trip. Redis away: the stream still flows, but cannot be resumed
    // from this event (its id names nothing), rather than failing the request.
    const stored = await Promise.all([
      this.#redis.command([
        'XADD',
        this.#key,
        'MAXLEN',
        '~',
        this.#maxEvents,
        '*',
        's',
        streamId,
        'm',
        JSON.stringify(message),
      ]),
      ...(renew ? [this.#redis.command(['PEXPIRE', this.#key, this.#ttlMs])] : []),
    ]).catch(() => undefined);
    if (stored === undefined) {
      if (renew) this.#renewedAt = 0;
      return `${this.#tag}.unstored-${++this.#unstored}`;
    }
    const entry = String(stored[0]);
    // The gateway asks the stream of each response stream's first event (to know which stream a
    // dropped connection leaves): answered here, not by another read.
    this.#streams.set(entry, streamId);
    if (this.#streams.size > REMEMBERED_EVENTS) this.#streams.delete(this.#streams.keys().next().value!);
    return `${this.#tag}.${entry}`;
  }

  /** The entry id of one of this session's event ids, or `undefined` for anyone else's. */
  #entryOf(eventId: EventId): string | undefined {
    const [tag, entry] = eventId.split('.', 2);
    return tag === this.#tag && entry !== undefined && /^\d+-\d+$/.test(entry) ? entry : undefined;
  }

  async #stored(entry: string): Promise<{ stream: string } | undefined> {
    const reply = (await this.#redis.command(['XRANGE', this.#key, entry, entry])) as Entries;
    const first = reply[0];
    return first === undefined ? undefined : fieldsOf(first[1]);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const entry = this.#entryOf(eventId);
    if (entry === undefined) return undefined;
    return this.#streams.get(entry) ?? (await this.#stored(entry))?.stream;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const entry = this.#entryOf(lastEventId);
    const last = entry === undefined ? undefined : await this.#stored(entry);
    if (entry === undefined || last === undefined) throw new Error('unknown event id');
    const after = (await this.#redis.command(['XRANGE', this.#key, `(${entry}`, '+'])) as Entries;
    for (const [id, fields] of after) {
      const event = fieldsOf(fields);
      if (event.stream !== last.stream) continue;
      const message = JSON.parse(event.message) as JSONRPCMessage;
      if (!isPriming(message)) await send(`${this.#tag}.${id}`, message);
    }
    return last.stream;
  }
}

/**
 * The cluster's session event stores (the gateway's `SessionEventStores`, shape of the SDK's
 * `EventStore` per session) on Redis Streams, one stream per session, namespaced by principal
 * and session.
 */
export class RedisEventStores {
  readonly #redis: RedisConnection;
  readonly #keys: RedisKeys;
  readonly #options: Required<RedisEventStoresOptions>;

  constructor(redis: RedisConnection, keys: RedisKeys, options: RedisEventStoresOptions = {}) {
    this.#redis = redis;
    this.#keys = keys;
    this.#options = { maxEvents: options.maxEvents ?? 1000, ttlMs: options.ttlMs ?? 300_000 };
  }

  /** The event store of `principal`'s session `sessionId`. */
  forSession(sessionId: string, principal = ''): EventStore {
    return new RedisSessionEvents(
      this.#redis,
      this.#keys.events(principal, sessionId),
      sessionId,
      this.#options,
    );
  }

  /** The session ended: its events go. */
  async dropSession(sessionId: string, principal = ''): Promise<void> {
    await this.#redis.command(['DEL', this.#keys.events(principal, sessionId)]).catch(() => {});
  }
}

/**
 * The gateway's event stores in cluster mode: the cluster's {@link RedisEventStores}, made when
 * the first session asks (the replica has joined by then: no request is served before).
 */
export function clusterEventStores(node: () => ClusterNode | undefined) {
  let stores: RedisEventStores | undefined;
  const get = (): RedisEventStores => {
    const joined = node();
    if (joined === undefined) throw new Error('cluster mode: a session opened before the replica joined');
    stores ??= new RedisEventStores(joined.redis, joined.keys);
    return stores;
  };
  return {
    forSession: (sessionId: string, principal?: string) => get().forSession(sessionId, principal),
    dropSession: (sessionId: string, principal?: string) => get().dropSession(sessionId, principal),
  };
}
