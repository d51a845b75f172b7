import type { McpToolHub } from '../mcp/hub-types.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** What one replica tells the others over the control channel. */
interface ControlMessage {
  /** The replica that saw it (it ignores its own messages). */
  from: string;
  /**
   * `tools`: `server`'s tool list changed, as this replica's upstream session was told.
   * `auth`: `server` was signed in here (OAuth); its tokens are in the shared vault.
   */
  kind: 'tools' | 'auth';
  server: string;
}

/** The control channel as a replica runs it: stop it, and whether a server is re-listed because another replica said so. */
export interface ChangeRelay {
  /**
   * True while `server` is re-listed because another replica saw its tools change: what that
   * re-list reports counts as a change here only where this replica's own list differs.
   */
  relisting(server: string): boolean;
  stop(): void;
}

/**
 * The control channel (Redis pub/sub): relays what only one replica can see — an upstream that
 * told only the session that made a change, so every replica re-lists that server; an OAuth
 * sign-in completed on one replica, so the others connect with the tokens of the shared vault. A replica
 * then announces to its own clients only if its own list really changed (the tool list announcer
 * compares), so no client hears a change twice or before its replica can serve it. Downstream
 * notifications never go on the bus.
 */
export async function relayChanges(
  redis: RedisConnection,
  keys: RedisKeys,
  replicaId: string,
  hub: McpToolHub,
  log: (line: string) => void,
): Promise<ChangeRelay> {
  const channel = keys.control();
  /** Servers being re-listed because another replica said so: their change is not relayed back. */
  const relaying = new Map<string, number>();
  const subscriber = await redis.subscriber();
  await subscriber.subscribe(channel, (text) => {
    let message: ControlMessage;
    try {
      message = JSON.parse(text) as ControlMessage;
    } catch {
      return;
    }
    if (message.from === replicaId || !hub.servers().includes(message.server)) return;
    if (message.kind === 'auth') {
      // Signed in on another replica: the shared vault has the tokens; connecting with them needs no
      // person. A re-list already under way (the same sign-in's tool change) connects with them too,
      // and a second connect would be a second announcement of the same tools.
      if (hub.status(message.server)?.state === 'auth_required' && !relaying.has(message.server))
        hub
          .authorize?.(message.server)
          .catch((error: unknown) =>
            log(`cluster: using another replica's sign-in to ${message.server} failed: ${String(error)}`),
          );
      return;
    }
    if (message.kind !== 'tools') return;
    relaying.set(message.server, (relaying.get(message.server) ?? 0) + 1);
    hub
      .refresh(message.server)
      .catch((error: unknown) =>
        log(`cluster: re-listing ${message.server} after another replica's change failed: ${String(error)}`),
      )
      .finally(() => {
        const left = (relaying.get(message.server) ?? 1) - 1;
        if (left > 0) relaying.set(message.server, left);
        else relaying.delete(message.server);
      });
  });
  let stopped = false;
  const unsubscribe = hub.on('toolsChanged', (server) => {
    if (stopped || relaying.has(server)) return;
    const message: ControlMessage = { from: replicaId, kind: 'tools', server };
    redis.command(['PUBLISH', channel, JSON.stringify(message)]).catch(() => {});
  });
  const states = new Map(hub.status().map((status) => [status.name, status.state]));
  const unsubscribeStatus = hub.on('status', (status) => {
    const was = states.get(status.name);
    states.set(status.name, status.state);
    if (stopped || was !== 'auth_required' || status.state !== 'connected') return;
    const message: ControlMessage = { from: replicaId, kind: 'auth', server: status.name };
    redis.command(['PUBLISH', channel, JSON.stringify(message)]).catch(() => {});
  });
  return {
    relisting: (server) => relaying.has(server),
    stop() {
      stopped = true;
      unsubscribe();
      unsubscribeStatus();
    },
  };
}
