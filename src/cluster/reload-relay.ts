import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** A reload announced on the control channel (`change-relay.ts` ignores it: it names no server). */
interface ReloadMessage {
  from: string;
  kind: 'reload';
}

/** Announces this replica's reloads to the others, and hears theirs. */
export interface ReloadRelay {
  /** Tells the other replicas that this one reloaded its configuration. */
  announce(): void;
  /** Stops hearing and announcing. */
  stop(): void;
}

/**
 * Relays configuration reloads across a cluster over its control channel (Redis pub/sub): a
 * replica that reloaded (SIGHUP, `--watch`) announces it, and every other replica then reloads
 * too — each re-reading its own file, so a change rolled out to every replica's file (a shared
 * volume, a config map) needs one signal to take effect everywhere. A reload caused by an
 * announcement is not announced again (the caller's `onPeerReload` reloads without announcing),
 * so one signal is one reload per replica.
 */
export async function relayReloads(
  redis: RedisConnection,
  keys: RedisKeys,
  replicaId: string,
  onPeerReload: (replica: string) => void,
): Promise<ReloadRelay> {
  const channel = keys.control();
  let stopped = false;
  const subscriber = await redis.subscriber();
  await subscriber.subscribe(channel, (text) => {
    if (stopped) return;
    let message: Partial<ReloadMessage>;
    try {
      message = JSON.parse(text) as Partial<ReloadMessage>;
    } catch {
      return;
    }
    if (message.kind !== 'reload' || typeof message.from !== 'string' || message.from === replicaId) return;
    onPeerReload(message.from);
  });
  return {
    announce() {
      if (stopped) return;
      const message: ReloadMessage = { from: replicaId, kind: 'reload' };
      redis.command(['PUBLISH', channel, JSON.stringify(message)]).catch(() => {});
    },
    stop() {
      stopped = true;
    },
  };
}
