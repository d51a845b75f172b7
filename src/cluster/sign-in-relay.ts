import type { ClusterSeal } from '../crypto/cluster-seal.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** A sign-in's redirect on the control channel, sealed (the other relays ignore its kind). */
interface SignInMessage {
  from: string;
  kind: 'signin';
  /** The redirect's parameters, the principal the browser proved, and when: sealed with the cluster key. */
  sealed: string;
}

/** How old a relayed redirect may arrive and still be taken. */
const MAX_AGE_MS = 60_000;

/** What {@link relaySignIns} gives: hands a redirect to the replica whose flow it is. */
export type SignInRelay = (params: URLSearchParams, principal: string) => Promise<void>;

/**
 * Carries an upstream sign-in's redirect to the replica that started the flow (which holds its
 * PKCE verifier): the replica that received `/oauth/callback` checked that the browser is the
 * flow's starter, and publishes the redirect with that principal on the control channel, sealed
 * with the cluster key; the replica with a flow waiting for its state completes it for that
 * principal only (`settle`), the others find none and drop it. Whoever can publish on that Redis
 * without the key cannot complete a flow, nor replay a redirect later (each carries its time,
 * and a flow completes once).
 */
export async function relaySignIns(
  redis: RedisConnection,
  keys: RedisKeys,
  replicaId: string,
  seal: ClusterSeal,
  settle: (params: URLSearchParams, principal: string) => unknown,
): Promise<{ relay: SignInRelay; stop: () => void }> {
  const channel = keys.control();
  const where = `${channel}\nsignin`;
  let stopped = false;
  const subscriber = await redis.subscriber();
  await subscriber.subscribe(channel, (text) => {
    if (stopped) return;
    let message: Partial<SignInMessage>;
    try {
      message = JSON.parse(text) as Partial<SignInMessage>;
    } catch {
      return;
    }
    if (message.kind !== 'signin' || message.from === replicaId || typeof message.sealed !== 'string') return;
    const opened = seal.open(message.sealed, where);
    if (opened === undefined) return;
    try {
      const { params, principal, at } = JSON.parse(opened) as {
        params?: unknown;
        principal?: unknown;
        at?: unknown;
      };
      if (typeof params !== 'string' || typeof principal !== 'string' || typeof at !== 'number') return;
      if (Math.abs(Date.now() - at) > MAX_AGE_MS) return;
      settle(new URLSearchParams(params), principal);
    } catch {
      // A malformed message is dropped without detail.
    }
  });
  const relay: SignInRelay = async (params, principal) => {
    const message: SignInMessage = {
      from: replicaId,
      kind: 'signin',
      sealed: seal.seal(JSON.stringify({ params: params.toString(), principal, at: Date.now() }), where),
    };
    await redis.command(['PUBLISH', channel, JSON.stringify(message)]);
  };
  return {
    relay,
    stop: () => {
      stopped = true;
    },
  };
}
