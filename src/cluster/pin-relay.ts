import type { ClusterSeal } from '../crypto/cluster-seal.js';
import type { PinApproval, PinGuard } from '../pins/pin-guard.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** A pin approval on the control channel, sealed (`change-relay.ts` and `reload-relay.ts` ignore it). */
interface PinMessage {
  from: string;
  kind: 'pin';
  /** The approval and when it was sent, sealed with the cluster key. */
  sealed: string;
}

/** An approval as sealed: what was approved, when, and by which replica. */
type SealedApproval = PinApproval & { at: number; from?: string };

/** How old a published approval may arrive and still be taken: a replayed old one is refused. */
const MAX_AGE_MS = 5 * 60_000;
/**
 * How old a recorded approval may be and still be applied by a replica that missed it: one
 * down for longer approves again from its own file (`mcptools pins diff` shows what waits).
 */
export const RECORDED_APPROVAL_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** How many approvals the record keeps (the newest). */
export const RECORDED_APPROVALS_CAP = 1000;
/** How often the connection's generation is looked at, to read the record again after Redis came back. */
const RECONNECT_CHECK_MS = 1000;

/**
 * Shares pin approvals across a cluster: a definition approved on one replica (`mcptools pins
 * approve` on its pin file, or the library) becomes the pin of every other replica, in its own
 * pin file, and is served there at once. Each approval is published on the control channel and
 * kept in a capped list in Redis, both sealed with the cluster key and carrying their time, so
 * whoever can write to that Redis without the key cannot approve a definition, nor replay an
 * old approval later. A replica applies the recorded approvals it missed when it starts and
 * whenever its connection to Redis comes back (a pin it made after an approval is kept).
 * Returns a function that stops relaying.
 */
export async function relayPinApprovals(
  redis: RedisConnection,
  keys: RedisKeys,
  replicaId: string,
  seal: ClusterSeal,
  pins: PinGuard,
  log: (line: string) => void,
): Promise<() => void> {
  const channel = keys.control();
  const where = `${channel}\npin`;
  const record = keys.pinApprovals();
  const recordWhere = `${record}\napproval`;
  let stopped = false;
  const take = (approval: SealedApproval, how: string, approvedAt?: number) =>
    pins
      .adopt(approval, approvedAt === undefined ? {} : { approvedAt })
      .then((pinned) => {
        if (pinned) log(`cluster: ${approval.server}/${approval.key} approved on replica ${how}`);
      })
      .catch((error: unknown) =>
        log(`cluster: taking another replica's approval of ${approval.server} failed: ${String(error)}`),
      );
  const subscriber = await redis.subscriber();
  await subscriber.subscribe(channel, (text) => {
    if (stopped) return;
    let message: Partial<PinMessage>;
    try {
      message = JSON.parse(text) as Partial<PinMessage>;
    } catch {
      return;
    }
    if (message.kind !== 'pin' || message.from === replicaId || typeof message.sealed !== 'string') return;
    const approval = openApproval(seal.open(message.sealed, where), MAX_AGE_MS);
    // A forged, foreign or stale approval is dropped without detail.
    if (approval === undefined) return;
    void take(approval, String(message.from));
  });

  /** Applies every recorded approval that opens under the key and is recent enough, oldest first. */
  let reading: Promise<void> | undefined;
  const catchUp = () => {
    reading ??= (async () => {
      const entries = await redis.command(['LRANGE', record, '0', '-1']).catch(() => undefined);
      if (!Array.isArray(entries)) return;
      for (const entry of entries) {
        if (stopped) return;
        if (typeof entry !== 'string') continue;
        const approval = openApproval(seal.open(entry, recordWhere), RECORDED_APPROVAL_MAX_AGE_MS);
        // A forged, foreign or expired record is skipped without detail.
        if (approval === undefined) continue;
        await take(approval, `${approval.from ?? 'unknown'} (recorded)`, approval.at);
      }
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  };
  await catchUp();
  let generation = redis.generation;
  const watch = setInterval(() => {
    if (redis.generation === generation || !redis.ready) return;
    generation = redis.generation;
    void catchUp();
  }, RECONNECT_CHECK_MS);
  watch.unref();

  const unsubscribe = pins.onApproval((approval) => {
    if (stopped) return;
    const at = Date.now();
    const message: PinMessage = {
      from: replicaId,
      kind: 'pin',
      sealed: seal.seal(JSON.stringify({ ...approval, at }), where),
    };
    redis.command(['PUBLISH', channel, JSON.stringify(message)]).catch(() => {});
    // The record, for a replica that is not running now (or not connected to Redis).
    const sealed = seal.seal(JSON.stringify({ ...approval, at, from: replicaId }), recordWhere);
    redis
      .command(['RPUSH', record, sealed])
      .then(() => redis.command(['LTRIM', record, String(-RECORDED_APPROVALS_CAP), '-1']))
      .catch((error: unknown) =>
        log(
          `cluster: could not record the approval of ${approval.server}/${approval.key} in Redis (a replica that is down will not hear it): ${String(error)}`,
        ),
      );
  });
  return () => {
    stopped = true;
    clearInterval(watch);
    unsubscribe();
  };
}

/** The approval an opened message holds, if it is one and younger than `maxAgeMs`; `undefined` otherwise. */
function openApproval(plain: string | undefined, maxAgeMs: number): SealedApproval | undefined {
  if (plain === undefined) return undefined;
  let value: Partial<SealedApproval>;
  try {
    value = JSON.parse(plain) as Partial<SealedApproval>;
  } catch {
    return undefined;
  }
  const { server, key, fingerprint, definition, at, from } = value;
  if (typeof server !== 'string' || typeof key !== 'string' || typeof fingerprint !== 'string')
    return undefined;
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return undefined;
  if (typeof at !== 'number' || Math.abs(Date.now() - at) > maxAgeMs) return undefined;
  return { server, key, fingerprint, definition, at, ...(typeof from === 'string' ? { from } : {}) };
}
