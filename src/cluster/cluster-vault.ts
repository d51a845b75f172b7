import { deriveClusterKeys } from './cluster-key.js';
import { checkClusterOptions } from './cluster-node.js';
import type { ClusterOptions } from './cluster-options.js';
import { connectRedis } from './redis-connection.js';
import { RedisKeys } from './redis-keys.js';
import { RedisTokenStore } from './redis-token-store.js';

/**
 * The OAuth vault of a cluster replica (`mcptools serve --cluster`): a {@link RedisTokenStore}
 * on its own Redis connection, opened before the upstream servers connect (so an unreachable
 * Redis stops `serve` before anything starts), and `close` for the end.
 */
export async function openClusterVault(
  options: ClusterOptions,
  log: (line: string) => void,
): Promise<{ store: RedisTokenStore; close(): Promise<void> }> {
  const settings = checkClusterOptions(options);
  const redis = await connectRedis(settings.redis, log);
  const keys = deriveClusterKeys(settings.key);
  return {
    store: new RedisTokenStore(redis, new RedisKeys(keys.namespace, keys.names), keys.storage),
    close: () => redis.close(),
  };
}
