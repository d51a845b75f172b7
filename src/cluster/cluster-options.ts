/**
 * Cluster mode of the gateway (`createGateway({ cluster })`, `mcptools serve --cluster`): any
 * number of replicas behind an ordinary load balancer, sharing state in Redis. Off by default.
 */
export interface ClusterOptions {
  /** The Redis server: `redis://[user:password@]HOST:PORT[/db]` or `unix:///path/redis.sock`. */
  redis: string;
  /**
   * The cluster key, at least 32 random bytes (raw, or as hex/base64 text), the same on every
   * replica: it signs what replicas forward to each other. The CLI reads `MCPTOOLS_CLUSTER_KEY`.
   */
  key: Uint8Array | string;
  /** The URL other replicas reach this one at (`http://10.0.0.5:8808`); its host is accepted in `Host`. */
  advertiseUrl: string;
  /** This replica's id (default: random per process). Unique per replica. */
  replicaId?: string;
  /** How often this replica renews its heartbeat, in ms; it is presumed dead after three. Default 1000. */
  heartbeatMs?: number;
  /** How long SIGTERM (`close()`) lets calls in flight finish before handing sessions over, in ms. Default 10 000. */
  drainMs?: number;
}
