import { createHmac } from 'node:crypto';

/**
 * The names of everything a cluster keeps in Redis, under `mcptools:<namespace>:` (the
 * namespace comes from the cluster key, so clusters sharing one Redis never meet). A session's
 * data is also under its principal: a session id presented with another principal's token names
 * a key that does not exist. The principal and the session id appear only as an HMAC under a
 * key derived from the cluster key (`names`): a key listing tells neither who uses the gateway
 * nor a session id to present, and nobody without the key can name a session's keys.
 */
export class RedisKeys {
  readonly #prefix: string;
  readonly #names: Buffer;

  constructor(namespace: string, names: Buffer) {
    this.#prefix = `mcptools:${namespace}:`;
    this.#names = names;
  }

  /** `name` as it appears in key names: an HMAC under the naming key. */
  #hash(name: string): string {
    return createHmac('sha256', this.#names).update(name).digest('base64url');
  }

  /** `principal`'s session `sessionId` as it appears in key names. */
  #sessionName(principal: string, sessionId: string): string {
    return this.#hash(JSON.stringify([principal, sessionId]));
  }

  /** A replica's heartbeat (its advertised URL, with a TTL). */
  replica(id: string): string {
    return `${this.#prefix}replica:${id}`;
  }

  /** A 2025-era session's record (a hash). */
  session(principal: string, sessionId: string): string {
    return `${this.#prefix}session:${this.#sessionName(principal, sessionId)}`;
  }

  /** The set of session record keys a replica owns (for hand-over at drain). */
  owned(replicaId: string): string {
    return `${this.#prefix}owned:${replicaId}`;
  }

  /** A session's resumable event stream (a Redis stream). */
  events(principal: string, sessionId: string): string {
    return `${this.#prefix}events:${this.#sessionName(principal, sessionId)}`;
  }

  /** The control channel (pub/sub) every replica listens on. */
  control(): string {
    return `${this.#prefix}control`;
  }

  /** An OAuth token entry of the shared vault. */
  token(server: string): string {
    return `${this.#prefix}token:${server}`;
  }

  /** A shared rate-limit bucket (`policies.rateLimits`): its rule and key (which may name a principal), hashed. */
  rateLimit(bucket: string): string {
    return `${this.#prefix}ratelimit:${this.#hash(bucket)}`;
  }

  /** The claim of a relayed `input_required` round's first retry (its name a digest already). */
  relayRound(digest: string): string {
    return `${this.#prefix}relay-round:${digest}`;
  }

  /** A forwarding header's nonce, seen by some replica (a random value already). */
  forwardNonce(nonce: string): string {
    return `${this.#prefix}forward-nonce:${nonce}`;
  }

  /** A browser sign-in's nonce, used once in the whole cluster (a random value already). */
  browserNonce(nonce: string): string {
    return `${this.#prefix}browser-nonce:${nonce}`;
  }

  /** The cluster's pins of definitions (a hash of sealed records, one field per {@link pinField}). */
  pins(): string {
    return `${this.#prefix}pins`;
  }

  /** The field of {@link pins} that holds `server`'s record `entry` (a pin key or `seen:<kind>`), hashed. */
  pinField(server: string, entry: string): string {
    return this.#hash(JSON.stringify(['pin', server, entry]));
  }

  /** The lock held across one server's token refresh. */
  tokenLock(server: string): string {
    return `${this.#prefix}token-lock:${server}`;
  }
}
