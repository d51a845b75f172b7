/**
 * The names of everything a cluster keeps in Redis, under `mcptools:<namespace>:` (the
 * namespace comes from the cluster key, so clusters sharing one Redis never meet). A session's
 * data is also under its principal: a session id presented with another principal's token names
 * a key that does not exist.
 */
export class RedisKeys {
  readonly #prefix: string;

  constructor(namespace: string) {
    this.#prefix = `mcptools:${namespace}:`;
  }

  /** A replica's heartbeat (its advertised URL, with a TTL). */
  replica(id: string): string {
    return `${this.#prefix}replica:${id}`;
  }

  /** A 2025-era session's record (a hash). */
  session(principal: string, sessionId: string): string {
    return `${this.#prefix}session:${principal}:${sessionId}`;
  }

  /** The set of session record keys a replica owns (for hand-over at drain). */
  owned(replicaId: string): string {
    return `${this.#prefix}owned:${replicaId}`;
  }

  /** A session's resumable event stream (a Redis stream). */
  events(principal: string, sessionId: string): string {
    return `${this.#prefix}events:${principal}:${sessionId}`;
  }

  /** The control channel (pub/sub) every replica listens on. */
  control(): string {
    return `${this.#prefix}control`;
  }

  /** An OAuth token entry of the shared vault. */
  token(server: string): string {
    return `${this.#prefix}token:${server}`;
  }

  /** A shared rate-limit bucket (`policies.rateLimits`): its rule and key. */
  rateLimit(bucket: string): string {
    return `${this.#prefix}ratelimit:${bucket}`;
  }

  /** The lock held across one server's token refresh. */
  tokenLock(server: string): string {
    return `${this.#prefix}token-lock:${server}`;
  }
}
