import type { ClusterSeal } from '../crypto/cluster-seal.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** A session record lives this long after its last change (a client idle for a day starts over). */
const RECORD_TTL_SECONDS = 24 * 60 * 60;

/** What the cluster keeps of a 2025-era session: enough for another replica to forward to it or adopt it. */
export interface SessionRecord {
  id: string;
  principal: string;
  /** The replica that holds its transport; `''` once handed over (anyone may adopt it). */
  owner: string;
  /** The profile it is served under (`''`: the default one). */
  profile: string;
  /** The client's `initialize` request, replayed to rebuild the session elsewhere. */
  initialize: unknown;
  logLevel?: string;
  subscriptions: string[];
}

/**
 * Claims a session for `ARGV[2]` if its owner is still `ARGV[1]` and that owner is gone (no
 * heartbeat key, or handed over): one script, so two replicas adopting at once cannot both win.
 */
const CLAIM = `
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner == false or owner ~= ARGV[1] then return 0 end
if owner ~= '' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'owner', ARGV[2])
if owner ~= '' then redis.call('SREM', KEYS[3], KEYS[1]) end
redis.call('SADD', KEYS[4], KEYS[1])
return 1`;

/** Hands every session `ARGV[1]` owns over (owner `''`), leaving those another replica took since. */
const RELEASE = `
local keys = redis.call('SMEMBERS', KEYS[1])
local released = 0
for _, key in ipairs(keys) do
  if redis.call('HGET', key, 'owner') == ARGV[1] then
    redis.call('HSET', key, 'owner', '')
    released = released + 1
  end
end
redis.call('DEL', KEYS[1])
return released`;

/** The fields of a record sealed with the cluster key (`owner` stays clear: the scripts above compare it). */
const SEALED_FIELDS = ['profile', 'initialize', 'subscriptions', 'logLevel'] as const;

/**
 * The 2025-era session records of a cluster, in Redis hashes named by an HMAC of principal and
 * session id. Every field but `owner` is sealed with the cluster key, bound to its record and
 * field: the client's `initialize` and its subscriptions are not in Redis in clear, and a record
 * written or altered there without the key does not open (it is dropped, reported, never used).
 */
export class SessionDirectory {
  readonly #redis: RedisConnection;
  readonly #keys: RedisKeys;
  readonly #replicaId: string;
  readonly #seal: ClusterSeal;
  readonly #log: (line: string) => void;

  constructor(
    redis: RedisConnection,
    keys: RedisKeys,
    replicaId: string,
    seal: ClusterSeal,
    log: (line: string) => void = () => {},
  ) {
    this.#redis = redis;
    this.#keys = keys;
    this.#replicaId = replicaId;
    this.#seal = seal;
    this.#log = log;
  }

  /** `value` of `field` of the record at `key`, sealed. */
  #sealed(key: string, field: (typeof SEALED_FIELDS)[number], value: string): string {
    return this.#seal.seal(value, `${key}\n${field}`);
  }

  /** Records a session this replica just opened. */
  async create(record: Omit<SessionRecord, 'owner' | 'subscriptions'>): Promise<void> {
    const key = this.#keys.session(record.principal, record.id);
    await Promise.all([
      this.#redis.command([
        'HSET',
        key,
        'owner',
        this.#replicaId,
        'profile',
        this.#sealed(key, 'profile', record.profile),
        'initialize',
        this.#sealed(key, 'initialize', JSON.stringify(record.initialize)),
        'subscriptions',
        this.#sealed(key, 'subscriptions', '[]'),
      ]),
      this.#redis.command(['EXPIRE', key, String(RECORD_TTL_SECONDS)]),
      this.#redis.command(['SADD', this.#keys.owned(this.#replicaId), key]),
    ]);
  }

  /** Keeps a session's log level and resource subscriptions, so an adopter restores them. */
  async update(
    principal: string,
    id: string,
    state: { logLevel?: string; subscriptions: Iterable<string> },
  ): Promise<void> {
    const key = this.#keys.session(principal, id);
    await Promise.all([
      this.#redis.command([
        'HSET',
        key,
        'subscriptions',
        this.#sealed(key, 'subscriptions', JSON.stringify([...state.subscriptions])),
        ...(state.logLevel === undefined ? [] : ['logLevel', this.#sealed(key, 'logLevel', state.logLevel)]),
      ]),
      this.#redis.command(['EXPIRE', key, String(RECORD_TTL_SECONDS)]),
    ]);
  }

  /**
   * The record of `principal`'s session `id`, or `undefined` (none, another principal's, or one
   * whose fields do not open under the cluster key: dropped and reported).
   */
  async get(principal: string, id: string): Promise<SessionRecord | undefined> {
    const key = this.#keys.session(principal, id);
    const stored = hashReply(await this.#redis.command(['HGETALL', key]));
    if (stored.owner === undefined || stored.initialize === undefined) return undefined;
    const fields: Record<string, string> = {};
    for (const field of SEALED_FIELDS) {
      if (stored[field] === undefined) continue;
      const opened = this.#seal.open(stored[field], `${key}\n${field}`);
      if (opened === undefined) {
        this.#log(
          'cluster: dropped a session record that does not open under the cluster key (written without it, or moved); not used',
        );
        return undefined;
      }
      fields[field] = opened;
    }
    return {
      id,
      principal,
      owner: stored.owner,
      profile: fields.profile ?? '',
      initialize: JSON.parse(fields.initialize ?? 'null') as unknown,
      ...(fields.logLevel === undefined ? {} : { logLevel: fields.logLevel }),
      subscriptions: JSON.parse(fields.subscriptions ?? '[]') as string[],
    };
  }

  /** Makes this replica the owner if `record.owner` is gone; `false` when another replica won. */
  async claim(record: SessionRecord): Promise<boolean> {
    const key = this.#keys.session(record.principal, record.id);
    const reply = await this.#redis.command([
      'EVAL',
      CLAIM,
      '4',
      key,
      this.#keys.replica(record.owner),
      this.#keys.owned(record.owner),
      this.#keys.owned(this.#replicaId),
      record.owner,
      this.#replicaId,
    ]);
    return reply === 1;
  }

  /** The session ended (`DELETE`, or its transport closed for good): its record goes. */
  async remove(principal: string, id: string): Promise<void> {
    const key = this.#keys.session(principal, id);
    await Promise.all([
      this.#redis.command(['DEL', key]),
      this.#redis.command(['SREM', this.#keys.owned(this.#replicaId), key]),
    ]);
  }

  /** Hands every session this replica owns over (drain); resolves with how many. */
  async releaseAll(): Promise<number> {
    const reply = await this.#redis.command([
      'EVAL',
      RELEASE,
      '1',
      this.#keys.owned(this.#replicaId),
      this.#replicaId,
    ]);
    return typeof reply === 'number' ? reply : 0;
  }
}

/** `HGETALL`'s reply (a flat array in RESP2, a map in RESP3) as an object. */
function hashReply(reply: unknown): Record<string, string> {
  if (Array.isArray(reply)) {
    const fields: Record<string, string> = {};
    for (let index = 0; index + 1 < reply.length; index += 2)
      fields[String(reply[index])] = String(reply[index + 1]);
    return fields;
  }
  if (reply !== null && typeof reply === 'object') return reply as Record<string, string>;
  return {};
}
