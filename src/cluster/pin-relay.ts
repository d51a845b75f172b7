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

/** How old an approval may arrive and still be taken: a replayed old one is refused. */
const MAX_AGE_MS = 5 * 60_000;

/**
 * Shares pin approvals across a cluster over its control channel: a definition approved on one
 * replica (`mcptools pins approve` on its pin file, or the library) becomes the pin of every
 * other replica, in its own pin file, and is served there at once. Each approval is sealed with
 * the cluster key and carries its time, so whoever can publish on that Redis without the key
 * cannot approve a definition, nor replay an old approval later. A replica that is not running
 * when an approval is made does not hear it (it approves from its own file). Returns a function
 * that stops relaying.
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
  let stopped = false;
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
    const approval = openApproval(seal.open(message.sealed, where));
    // A forged, foreign or stale approval is dropped without detail.
    if (approval === undefined) return;
    pins
      .adopt(approval)
      .then(() => log(`cluster: ${approval.server}/${approval.key} approved on replica ${message.from}`))
      .catch((error: unknown) =>
        log(`cluster: taking another replica's approval of ${approval.server} failed: ${String(error)}`),
      );
  });
  const unsubscribe = pins.onApproval((approval) => {
    if (stopped) return;
    const message: PinMessage = {
      from: replicaId,
      kind: 'pin',
      sealed: seal.seal(JSON.stringify({ ...approval, at: Date.now() }), where),
    };
    redis.command(['PUBLISH', channel, JSON.stringify(message)]).catch(() => {});
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}

/** The approval an opened message holds, if it is one and recent; `undefined` otherwise. */
function openApproval(plain: string | undefined): PinApproval | undefined {
  if (plain === undefined) return undefined;
  let value: Partial<PinApproval & { at: number }>;
  try {
    value = JSON.parse(plain) as Partial<PinApproval & { at: number }>;
  } catch {
    return undefined;
  }
  const { server, key, fingerprint, definition, at } = value;
  if (typeof server !== 'string' || typeof key !== 'string' || typeof fingerprint !== 'string')
    return undefined;
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return undefined;
  if (typeof at !== 'number' || Math.abs(Date.now() - at) > MAX_AGE_MS) return undefined;
  return { server, key, fingerprint, definition };
}
