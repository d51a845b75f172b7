import { createHash, randomBytes } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { ClusterSeal } from '../crypto/cluster-seal.js';
import type { ClusterNode } from './cluster-node.js';
import { RedisBatchWriter } from './redis-batch-writer.js';
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
  /** Where a stored event that does not open is reported (never its content). Default: nowhere. */
  log?: (line: string) => void;
}

/** A priming event: the SDK stores `{}` to mint the id a stream starts with. */
const isPriming = (message: JSONRPCMessage) => Object.keys(message).length === 0;

/** How many entries a replay reads from Redis at a time, newest first. */
const PAGE = 64;

/** How long a replay that does not find its event yet waits for it once (an `XADD` still on its way). */
const IN_FLIGHT_MS = 50;

/** `XRANGE`'s reply as `[entry id, fields]` pairs. */
type Entries = [string, string[]][];

/** An event as stored: its id (`i`, which names its stream) and its message's JSON, sealed (`m`). */
function fieldsOf(fields: string[]): { id: string; message: string } {
  const read: Record<string, string> = {};
  for (let index = 0; index + 1 < fields.length; index += 2) read[fields[index]!] = fields[index + 1]!;
  return { id: read.i ?? '', message: read.m ?? '{}' };
}

/** An event id of this store, read: `<session tag>.<kind><writer>-<n>.<stream id>`. */
interface ParsedId {
  readonly tag: string;
  /** A priming event (`p`): minted, never stored; every stored event of its stream follows it. */
  readonly priming: boolean;
  readonly streamId: StreamId;
}

function parseEventId(eventId: EventId): ParsedId | undefined {
  const first = eventId.indexOf('.');
  const second = eventId.indexOf('.', first + 1);
  if (first < 0 || second < 0) return undefined;
  const mark = eventId.slice(first + 1, second);
  if (!/^[ep][\w-]+-\d+$/.test(mark)) return undefined;
  return { tag: eventId.slice(0, first), priming: mark[0] === 'p', streamId: eventId.slice(second + 1) };
}

/**
 * One session's events in a Redis stream (`events:<HMAC of principal and session>`): any replica
 * can replay them, so a client that lost a response stream resumes it with `Last-Event-ID`
 * wherever the balancer sends it.
 *
 * Each message is sealed with the cluster key, bound to the stream's key and its event id: Redis
 * holds no result in clear, and an entry written there by anyone without the key (an `XADD` of a
 * forged message, or a real one copied under another id or into another session) does not open,
 * so a replay drops it, reports it, and never sends it to the client.
 *
 * The store mints its event ids itself and does not wait for Redis: an event leaves for the
 * client first, and its `XADD` follows within a few milliseconds, with the replica's other
 * events of that moment (a {@link RedisBatchWriter}), so a call pays no Redis round trip; a
 * replay that does not find its event yet looks once more a moment later. An id names its
 * session (a tag derived from the session: another session's id names nothing here, as the
 * SDK's replay checks no owner), its writer and its stream, so the stream of an event is known
 * without a read. A priming event is not stored at all: resuming from it replays every stored
 * event of its stream. Redis away: the event still flows, but is not stored (a replay skips
 * it), rather than failing the request.
 */
class RedisSessionEvents implements EventStore {
  readonly #redis: RedisConnection;
  readonly #writer: RedisBatchWriter;
  readonly #seal: ClusterSeal;
  readonly #key: string;
  readonly #tag: string;
  /** This store object's part of its ids: ids minted by two replicas of one session differ. */
  readonly #mint = randomBytes(4).toString('base64url');
  #count = 0;
  readonly #maxEvents: string;
  readonly #ttlMs: string;
  /** When the key's time to live was last renewed (ms since the epoch; 0: never by this store). */
  #renewedAt = 0;
  readonly #renewEveryMs: number;
  readonly #log: (line: string) => void;

  constructor(
    redis: RedisConnection,
    writer: RedisBatchWriter,
    seal: ClusterSeal,
    key: string,
    sessionId: string,
    options: Required<RedisEventStoresOptions>,
  ) {
    this.#redis = redis;
    this.#writer = writer;
    this.#seal = seal;
    this.#key = key;
    this.#log = options.log;
    this.#tag = createHash('sha256').update(key).update(sessionId).digest('base64url').slice(0, 10);
    this.#maxEvents = String(options.maxEvents);
    this.#ttlMs = String(options.ttlMs);
    this.#renewEveryMs = options.ttlMs / 10;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const priming = isPriming(message);
    const eventId = `${this.#tag}.${priming ? 'p' : 'e'}${this.#mint}-${++this.#count}.${streamId}`;
    if (priming) return eventId;
    // The time to live rolls with the events, renewed at most every tenth of it (not per event).
    const now = Date.now();
    const renew = now - this.#renewedAt >= this.#renewEveryMs;
    if (renew) this.#renewedAt = now;
    this.#writer.add(() => [
      'XADD',
      this.#key,
      'MAXLEN',
      '~',
      this.#maxEvents,
      '*',
      'i',
      eventId,
      'm',
      this.#seal.seal(JSON.stringify(message), this.#where(eventId)),
    ]);
    if (renew) this.#writer.add(() => ['PEXPIRE', this.#key, this.#ttlMs]);
    return eventId;
  }

  /** What a sealed message of event `eventId` is bound to: this stream and that event. */
  #where(eventId: string): string {
    return `${this.#key}\n${eventId}`;
  }

  /** `eventId` read, or `undefined` when it is not one of this session's. */
  #parse(eventId: EventId): ParsedId | undefined {
    const parsed = parseEventId(eventId);
    return parsed?.tag === this.#tag ? parsed : undefined;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#parse(eventId)?.streamId;
  }

  /** The message of a stored event, opened; `undefined` (reported) when it does not open. */
  #open(event: { id: string; message: string }): string | undefined {
    const message = this.#seal.open(event.message, this.#where(event.id));
    if (message === undefined)
      this.#log(
        'cluster: dropped a stored event that does not open under the cluster key (written without it, or moved); not delivered',
      );
    return message;
  }

  /**
   * The stored events of `parsed`'s stream after `eventId`, oldest first, opened, read newest
   * first a page at a time down to `eventId` (a resumption is nearly always of a recent event),
   * or `undefined` when `eventId` is not stored. An entry that does not open is dropped (an
   * anchor too: a forged copy of `eventId` does not cut the replay short), and an id met twice is
   * sent once.
   */
  async #after(eventId: EventId, parsed: ParsedId): Promise<{ id: string; message: string }[] | undefined> {
    const later: { id: string; message: string }[] = [];
    const done = () => {
      const seen = new Set<string>();
      return later.reverse().filter((event) => !seen.has(event.id) && seen.add(event.id));
    };
    for (let end = '+'; ; ) {
      const page = (await this.#redis.command([
        'XREVRANGE',
        this.#key,
        end,
        '-',
        'COUNT',
        String(PAGE),
      ])) as Entries;
      for (const [, fields] of page) {
        const event = fieldsOf(fields);
        const anchor = event.id === eventId;
        if (!anchor && this.#parse(event.id)?.streamId !== parsed.streamId) continue;
        const message = this.#open(event);
        if (message === undefined) continue;
        if (anchor) return done();
        later.push({ id: event.id, message });
      }
      if (page.length < PAGE) return parsed.priming ? done() : undefined;
      end = `(${page[page.length - 1]![0]}`;
    }
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const parsed = this.#parse(lastEventId);
    if (parsed === undefined) throw new Error('unknown event id');
    let events = await this.#after(lastEventId, parsed);
    if (events === undefined) {
      // Maybe still on its way from the replica that wrote it: looked for once more.
      await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_MS));
      events = await this.#after(lastEventId, parsed);
    }
    if (events === undefined) throw new Error('unknown event id');
    for (const event of events) await send(event.id, JSON.parse(event.message) as JSONRPCMessage);
    return parsed.streamId;
  }
}

/**
 * The cluster's session event stores (the gateway's `SessionEventStores`, shape of the SDK's
 * `EventStore` per session) on Redis Streams, one stream per session, named by an HMAC of its
 * principal and session id, each message sealed with the cluster key.
 */
export class RedisEventStores {
  readonly #redis: RedisConnection;
  readonly #writer: RedisBatchWriter;
  readonly #keys: RedisKeys;
  readonly #seal: ClusterSeal;
  readonly #options: Required<RedisEventStoresOptions>;

  constructor(
    redis: RedisConnection,
    keys: RedisKeys,
    seal: ClusterSeal,
    options: RedisEventStoresOptions = {},
  ) {
    this.#redis = redis;
    this.#writer = new RedisBatchWriter(redis);
    this.#keys = keys;
    this.#seal = seal;
    this.#options = {
      maxEvents: options.maxEvents ?? 1000,
      ttlMs: options.ttlMs ?? 300_000,
      log: options.log ?? (() => {}),
    };
  }

  /** The event store of `principal`'s session `sessionId`. */
  forSession(sessionId: string, principal = ''): EventStore {
    return new RedisSessionEvents(
      this.#redis,
      this.#writer,
      this.#seal,
      this.#keys.events(principal, sessionId),
      sessionId,
      this.#options,
    );
  }

  /** The session ended: its events go. */
  async dropSession(sessionId: string, principal = ''): Promise<void> {
    // Its events on their way go first: written after the DEL, they would make the key again.
    this.#writer.flush();
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
    stores ??= new RedisEventStores(joined.redis, joined.keys, joined.seal, { log: joined.log });
    return stores;
  };
  return {
    forSession: (sessionId: string, principal?: string) => get().forSession(sessionId, principal),
    dropSession: (sessionId: string, principal?: string) => get().dropSession(sessionId, principal),
  };
}
