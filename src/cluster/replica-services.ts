import type { McpToolHub } from '../mcp/hub-types.js';
import { relayChanges } from './change-relay.js';
import type { ClusterNode } from './cluster-node.js';
import { sharePinsInRedis } from './redis-pins.js';
import { redisRateLimitStore } from './redis-rate-limits.js';
import { type ReloadRelay, relayReloads } from './reload-relay.js';

/** What a replica runs once it has joined its cluster, and how to stop it. */
export interface ReplicaServices {
  /** Announces this replica's configuration reload to the others. */
  reloads: ReloadRelay;
  /** True while `server` is re-listed because another replica saw its tools change. */
  relisting(server: string): boolean;
  stop(): void;
}

/**
 * Starts a joined replica's share of the cluster: upstream changes only it saw relayed to the
 * others, the pins kept in Redis (first use and approvals on any replica enforced on all), configured rate limits taken from Redis (local buckets while Redis is away), and
 * configuration reloads announced both ways (`onPeerReload` when another replica reloaded).
 */
export async function startReplicaServices(
  node: ClusterNode,
  parts: {
    hub: McpToolHub;
    onPeerReload?: ((from: string) => void) | undefined;
    log: (line: string) => void;
  },
): Promise<ReplicaServices> {
  const changes = await relayChanges(node.redis, node.keys, node.replicaId, parts.hub, parts.log);
  const pins = parts.hub.pins;
  const stopPins = pins
    ? await sharePinsInRedis(node.redis, node.keys, node.replicaId, node.seal, pins, parts.log)
    : () => {};
  const stopSharing = parts.hub.shareRateLimits?.(redisRateLimitStore(node.redis, node.keys)) ?? (() => {});
  const reloads = await relayReloads(node.redis, node.keys, node.replicaId, (from) =>
    parts.onPeerReload?.(from),
  );
  return {
    reloads,
    relisting: (server) => changes.relisting(server),
    stop() {
      changes.stop();
      stopPins();
      stopSharing();
      reloads.stop();
    },
  };
}
