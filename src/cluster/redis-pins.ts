import type { PinnedKind } from '../config/pins-config.js';
import type { ClusterSeal } from '../crypto/cluster-seal.js';
import type { PinEntry } from '../pins/pin-file.js';
import type { ClusterPins, PinChange, PinGuard } from '../pins/pin-guard.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** A notice on the control channel that a server's pins changed (`change-relay.ts` and `reload-relay.ts` ignore it). */
interface PinsMessage {
  from: string;
  kind: 'pins';
  /** `{ server, at }`, sealed with the cluster key. */
  sealed: string;
}

/** One record of the pins hash as sealed: a pin (`tool:search`) or a kind seen (`seen:tool`). */
interface PinRecord {
  server: string;
  entry: string;
  /** The replica that wrote it. */
  from: string;
  /** A pin an operator approved (`false`: pinned on first use). */
  approval?: boolean;
  pin?: PinEntry;
}

/** How old a notice may arrive and still be taken: a replayed old one is ignored. */
const MAX_NOTICE_AGE_MS = 5 * 60_000;
/** How often the connection's generation is looked at, to read the pins again after Redis came back. */
const RECONNECT_CHECK_MS = 1000;
const KINDS: readonly PinnedKind[] = ['tool', 'prompt', 'template'];

/**
 * Keeps a cluster's pins in Redis, so that every replica enforces the same ones: one hash
 * (`mcptools:<namespace>:pins`) of records, each sealed with the cluster key and bound to its
 * field (itself an HMAC of the server and the definition), so whoever can write to that Redis
 * without the key can neither pin nor approve a definition, nor move a record to another one.
 * A definition pinned on first use is written only where none is (the first replica wins; one
 * that lost takes the winner's pin and screens its list again); an approval replaces the pin.
 * Each change is announced on the control channel and the other replicas read the server's
 * records again. For a server the cluster has records of, they are what a replica pins (its pin
 * file is its working copy, where `mcptools pins diff` and `pins approve` work); a server it
 * lacks is taken from the replica's file. Read at join and whenever the connection comes back.
 * Returns a function that stops sharing.
 */
export async function sharePinsInRedis(
  redis: RedisConnection,
  keys: RedisKeys,
  replicaId: string,
  seal: ClusterSeal,
  pins: PinGuard,
  log: (line: string) => void,
): Promise<() => void> {
  const channel = keys.control();
  const noticeWhere = `${channel}\npins`;
  const hash = keys.pins();
  let stopped = false;
  /** Approvals made while Redis could not be written: written when it comes back. */
  const unsent = new Map<string, PinRecord>();

  const sealRecord = (record: PinRecord) => {
    const field = keys.pinField(record.server, record.entry);
    return [field, seal.seal(JSON.stringify(record), `${hash}\n${field}`)] as const;
  };
  const announce = (server: string) => {
    const message: PinsMessage = {
      from: replicaId,
      kind: 'pins',
      sealed: seal.seal(JSON.stringify({ server, at: Date.now() }), noticeWhere),
    };
    return redis.command(['PUBLISH', channel, JSON.stringify(message)]).catch(() => undefined);
  };

  /** Every record of the hash that opens under the key in its own field, by server. */
  const readAll = async (): Promise<Map<string, { fields: string[]; records: PinRecord[] }> | undefined> => {
    const reply = await redis.command(['HGETALL', hash]).catch(() => undefined);
    const entries = hashEntries(reply);
    if (entries === undefined) return undefined;
    const servers = new Map<string, { fields: string[]; records: PinRecord[] }>();
    for (const [field, value] of entries) {
      if (typeof field !== 'string' || typeof value !== 'string') continue;
      // A forged, foreign or moved record is skipped without detail.
      const record = openRecord(seal.open(value, `${hash}\n${field}`));
      if (record === undefined || keys.pinField(record.server, record.entry) !== field) continue;
      const server = servers.get(record.server) ?? { fields: [], records: [] };
      server.fields.push(field);
      server.records.push(record);
      servers.set(record.server, server);
    }
    return servers;
  };

  /** The local pins of `server` written where the cluster has none yet (a first replica, an older file). */
  const pushLocal = async (server: string) => {
    const local = pins.pinsOf(server);
    if (local === undefined) return;
    const records: PinRecord[] = [
      ...Object.entries(local.pins).map(([entry, pin]) => ({ server, entry, from: replicaId, pin })),
      ...local.seen.map((kind) => ({ server, entry: `seen:${kind}`, from: replicaId })),
    ];
    for (const record of records) await redis.command(['HSETNX', hash, ...sealRecord(record)]);
    if (records.length > 0) void announce(server);
  };

  /** Makes the cluster's records of `server` its pins here; logs what changed and who made it. */
  const apply = async (server: string, records: readonly PinRecord[]) => {
    const cluster: ClusterPins = { pins: {}, seen: [] };
    const made = new Map<string, PinRecord>();
    for (const record of records) {
      if (record.pin !== undefined) {
        cluster.pins[record.entry] = record.pin;
        made.set(record.entry, record);
      } else cluster.seen.push(record.entry.slice('seen:'.length) as PinnedKind);
    }
    const changed = await pins.replace(server, cluster);
    for (const key of changed) {
      const record = made.get(key);
      log(
        record === undefined
          ? `cluster: ${server}/${key} is no longer pinned in the cluster`
          : `cluster: ${server}/${key} ${record.approval ? 'approved' : 'pinned on first use'} on replica ${record.from}`,
      );
    }
  };

  /** Reads the cluster's pins and applies them (`only`: of one server); writes what it lacks. */
  let syncing: Promise<void> = Promise.resolve();
  const sync = (only?: string) => {
    syncing = syncing.then(async () => {
      if (stopped) return;
      for (const [key, record] of unsent) {
        await redis.command(['HSET', hash, ...sealRecord(record)]);
        unsent.delete(key);
        void announce(record.server);
      }
      const cluster = await readAll();
      if (cluster === undefined) return;
      const servers = only === undefined ? new Set([...cluster.keys(), ...pins.servers()]) : [only];
      for (const server of servers) {
        const records = cluster.get(server)?.records;
        if (records === undefined || records.length === 0) await pushLocal(server);
        else await apply(server, records);
      }
    });
    syncing = syncing.catch((error: unknown) =>
      log(`cluster: reading the pins from Redis failed: ${String(error)}`),
    );
    return syncing;
  };

  const record = async (change: PinChange) => {
    if (change.type === 'distrusted') {
      // Every record of the server goes; all it lists waits for an operator's approval everywhere.
      const cluster = await readAll();
      const fields = cluster?.get(change.server)?.fields ?? [];
      if (fields.length > 0) await redis.command(['HDEL', hash, ...fields]);
      for (const kind of KINDS)
        await redis.command([
          'HSET',
          hash,
          ...sealRecord({ server: change.server, entry: `seen:${kind}`, from: replicaId }),
        ]);
      await announce(change.server);
      return;
    }
    const { server } = change;
    if (change.approval) {
      for (const { key, entry } of change.pins) {
        const approval: PinRecord = { server, entry: key, from: replicaId, approval: true, pin: entry };
        unsent.set(`${server}\u0000${key}`, approval);
        await redis.command(['HSET', hash, ...sealRecord(approval)]);
        unsent.delete(`${server}\u0000${key}`);
      }
      await announce(server);
      return;
    }
    // First use: the first replica's pin wins; one that lost takes the cluster's pins of the
    // server. A kind the cluster saw already was no first use (this replica had not read the
    // cluster's pins yet): its definitions are screened against the cluster's instead.
    let lost = false;
    const seenBefore = new Set<string>();
    for (const kind of change.seen) {
      const written = await redis.command([
        'HSETNX',
        hash,
        ...sealRecord({ server, entry: `seen:${kind}`, from: replicaId }),
      ]);
      if (Number(written) === 0) seenBefore.add(kind);
    }
    for (const { key, entry } of change.pins) {
      if (seenBefore.has(key.slice(0, key.indexOf(':')))) {
        lost = true;
        continue;
      }
      const written = await redis.command([
        'HSETNX',
        hash,
        ...sealRecord({ server, entry: key, from: replicaId, pin: entry }),
      ]);
      if (Number(written) === 0) lost = true;
    }
    if (lost) await sync(server);
    await announce(server);
  };
  const unsubscribe = pins.onChange((change) => {
    if (stopped) return;
    record(change).catch((error: unknown) =>
      log(
        `cluster: could not record the pins of ${change.server} in Redis (written when it is back): ${String(error)}`,
      ),
    );
  });

  const subscriber = await redis.subscriber();
  await subscriber.subscribe(channel, (text) => {
    if (stopped) return;
    let message: Partial<PinsMessage>;
    try {
      message = JSON.parse(text) as Partial<PinsMessage>;
    } catch {
      return;
    }
    if (message.kind !== 'pins' || message.from === replicaId || typeof message.sealed !== 'string') return;
    const server = openNotice(seal.open(message.sealed, noticeWhere));
    // A forged or stale notice is dropped without detail (and would only make the records be read).
    if (server !== undefined) void sync(server);
  });

  await sync();
  let generation = redis.generation;
  const watch = setInterval(() => {
    if (redis.generation === generation || !redis.ready) return;
    generation = redis.generation;
    void sync();
  }, RECONNECT_CHECK_MS);
  watch.unref();
  return () => {
    stopped = true;
    clearInterval(watch);
    unsubscribe();
  };
}

/** `HGETALL`'s reply (a flat array in RESP2, a map in RESP3) as field and value pairs; `undefined`: no reply. */
function hashEntries(reply: unknown): [unknown, unknown][] | undefined {
  if (Array.isArray(reply)) {
    const entries: [unknown, unknown][] = [];
    for (let index = 0; index + 1 < reply.length; index += 2) entries.push([reply[index], reply[index + 1]]);
    return entries;
  }
  if (reply instanceof Map) return [...reply.entries()];
  if (reply !== null && typeof reply === 'object') return Object.entries(reply);
  return undefined;
}

/** The record an opened value holds, if it is one; `undefined` otherwise. */
function openRecord(plain: string | undefined): PinRecord | undefined {
  if (plain === undefined) return undefined;
  let value: Partial<PinRecord>;
  try {
    value = JSON.parse(plain) as Partial<PinRecord>;
  } catch {
    return undefined;
  }
  const { server, entry, from, approval, pin } = value;
  if (typeof server !== 'string' || typeof entry !== 'string' || typeof from !== 'string') return undefined;
  if (entry.startsWith('seen:')) {
    if (!KINDS.includes(entry.slice('seen:'.length) as PinnedKind)) return undefined;
    return { server, entry, from };
  }
  if (typeof pin !== 'object' || pin === null) return undefined;
  const { fingerprint, definition, pinnedAt } = pin;
  if (typeof fingerprint !== 'string' || typeof pinnedAt !== 'string') return undefined;
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return undefined;
  return { server, entry, from, approval: approval === true, pin: { fingerprint, definition, pinnedAt } };
}

/** The server a notice names, if it opened and is recent. */
function openNotice(plain: string | undefined): string | undefined {
  if (plain === undefined) return undefined;
  try {
    const { server, at } = JSON.parse(plain) as { server?: unknown; at?: unknown };
    if (typeof server !== 'string' || typeof at !== 'number') return undefined;
    return Math.abs(Date.now() - at) > MAX_NOTICE_AGE_MS ? undefined : server;
  } catch {
    return undefined;
  }
}
