import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { TokenStore, VaultEntry, VaultUpdate } from '../auth/token-store.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** How long one update may hold a server's lock (a token refresh is one HTTP request). */
const LOCK_MS = 30_000;
/** Between attempts to take a lock another replica holds. */
const LOCK_RETRY_MS = 50;

/** Releases a lock only if it is still ours (it may have expired and been taken since). */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * The OAuth vault shared by every replica of a cluster: each server's entry in a Redis hash,
 * encrypted with AES-256-GCM under a key derived from the cluster key (the server URL is the
 * associated data, so an entry cannot be moved to another server). `update` holds a lock on
 * the server across the whole read-modify-write — the token refresh included — so two replicas
 * never spend the same rotating refresh token.
 */
export class RedisTokenStore implements TokenStore {
  readonly #redis: RedisConnection;
  readonly #keys: RedisKeys;
  readonly #key: Buffer;

  constructor(redis: RedisConnection, keys: RedisKeys, storageKey: Buffer) {
    this.#redis = redis;
    this.#keys = keys;
    this.#key = storageKey;
  }

  #field(serverUrl: string): string {
    return createHash('sha256').update(serverUrl).digest('hex').slice(0, 32);
  }

  #seal(entry: VaultEntry): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(entry.serverUrl));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(entry), 'utf8'), cipher.final()]);
    // The URL is no secret (it names the entry); it is kept beside the sealed entry, bound to it as AAD.
    const url = Buffer.from(entry.serverUrl).toString('base64url');
    return `${url}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** The entry sealed in `text`, if it names `serverUrl` (any, for `list`) and opens under this key. */
  #open(text: string, serverUrl: string | undefined): VaultEntry | undefined {
    try {
      const [url, sealed] = text.split('.', 2);
      const named = Buffer.from(url ?? '', 'base64url').toString('utf8');
      if (sealed === undefined || (serverUrl !== undefined && named !== serverUrl)) return undefined;
      const bytes = Buffer.from(sealed, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      decipher.setAAD(Buffer.from(named));
      const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      return JSON.parse(plain) as VaultEntry;
    } catch {
      // Sealed under another key, or tampered with: as good as absent.
      return undefined;
    }
  }

  async get(serverUrl: string): Promise<VaultEntry | undefined> {
    const text = await this.#redis.command(['HGET', this.#keys.token('vault'), this.#field(serverUrl)]);
    return typeof text === 'string' ? this.#open(text, serverUrl) : undefined;
  }

  async update(serverUrl: string, update: VaultUpdate): Promise<VaultEntry | undefined> {
    const lock = this.#keys.tokenLock(this.#field(serverUrl));
    const owner = randomBytes(12).toString('hex');
    const until = Date.now() + LOCK_MS;
    while ((await this.#redis.command(['SET', lock, owner, 'NX', 'PX', String(LOCK_MS)])) !== 'OK') {
      if (Date.now() > until)
        throw new McpToolsError('TIMEOUT', `the shared OAuth vault stayed locked for ${serverUrl}`);
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
    try {
      const next = await update(await this.get(serverUrl));
      const field = this.#field(serverUrl);
      if (next === undefined) await this.#redis.command(['HDEL', this.#keys.token('vault'), field]);
      else await this.#redis.command(['HSET', this.#keys.token('vault'), field, this.#seal(next)]);
      return next;
    } finally {
      await this.#redis.command(['EVAL', UNLOCK, '1', lock, owner]).catch(() => {});
    }
  }

  async list(): Promise<VaultEntry[]> {
    const reply = await this.#redis.command(['HVALS', this.#keys.token('vault')]);
    const entries: VaultEntry[] = [];
    for (const text of Array.isArray(reply) ? reply : []) {
      const entry = this.#open(String(text), undefined);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }
}
