import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * The live replicas of a cluster: each one renews its own key (`replica:<id>` → its advertised
 * URL) every `heartbeatMs`, with a TTL of three beats, so a replica that died is gone from the
 * registry within three beats. A replica whose key is gone no longer owns its sessions.
 */
export class ReplicaRegistry {
  readonly #redis: RedisConnection;
  readonly #keys: RedisKeys;
  readonly #id: string;
  readonly #url: string;
  readonly #heartbeatMs: number;
  #timer: NodeJS.Timeout | undefined;
  #healthy = false;
  /** The connection generation of the last beat that reached Redis (`undefined` before the first). */
  #generation: number | undefined;
  #stopped = false;

  readonly #recovered: () => void;

  /** `recovered` is called when a heartbeat reaches Redis again after failing. */
  constructor(
    redis: RedisConnection,
    keys: RedisKeys,
    id: string,
    url: string,
    heartbeatMs: number,
    recovered: () => void = () => {},
  ) {
    this.#recovered = recovered;
    this.#redis = redis;
    this.#keys = keys;
    this.#id = id;
    this.#url = url;
    this.#heartbeatMs = heartbeatMs;
  }

  /** Writes the first heartbeat (rejects when Redis refuses it) and keeps beating. */
  async start(): Promise<void> {
    await this.#beat();
    this.#timer = setInterval(() => {
      this.#beat().catch(() => {
        this.#healthy = false;
      });
    }, this.#heartbeatMs);
    this.#timer.unref();
  }

  async #beat(): Promise<void> {
    if (this.#stopped) return;
    const generation = this.#redis.generation;
    await this.#redis.command([
      'SET',
      this.#keys.replica(this.#id),
      this.#url,
      'PX',
      String(this.#heartbeatMs * 3),
    ]);
    const was = this.#healthy;
    this.#healthy = true;
    // A failed beat, or a reconnection between two beats (an outage shorter than a beat).
    const reconnected = this.#generation !== undefined && this.#generation !== generation;
    this.#generation = generation;
    if ((!was || reconnected) && this.#timer !== undefined) this.#recovered();
  }

  /** Whether the last heartbeat reached Redis and the connection is still up. */
  get healthy(): boolean {
    return this.#healthy && this.#redis.ready;
  }

  /** The advertised URL of replica `id` while it is alive, else `undefined`. */
  async lookup(id: string): Promise<string | undefined> {
    const url = await this.#redis.command(['GET', this.#keys.replica(id)]);
    return typeof url === 'string' ? url : undefined;
  }

  /** Stops beating and removes this replica's key (others see it gone at once). */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#redis.command(['DEL', this.#keys.replica(this.#id)]).catch(() => {});
  }
}
