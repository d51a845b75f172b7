import { randomUUID } from 'node:crypto';
import { ClusterSeal } from '../crypto/cluster-seal.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { echoableId } from '../http/node-exchange.js';
import type { Caller } from '../tool/call-context.js';
import { checkClusterKey, deriveClusterKeys, parseClusterKey } from './cluster-key.js';
import type { ClusterOptions } from './cluster-options.js';
import { forwardRequest } from './forward-request.js';
import {
  FORWARD_HEADER,
  type ForwardedCaller,
  ForwardVerifier,
  forwardedBodyMatches,
  signForward,
} from './forward-signature.js';
import { OwnerCache } from './owner-cache.js';
import { connectRedis, type RedisConnection } from './redis-connection.js';
import { RedisKeys } from './redis-keys.js';
import { ReplicaRegistry } from './replica-registry.js';
import { SessionDirectory, type SessionRecord } from './session-directory.js';

/** How long a forwarding nonce's claim in Redis may take before this process's memory alone decides. */
const NONCE_CLAIM_TIMEOUT_MS = 500;

/** The settings of a cluster node, checked (the key read, the URL parsed) before anything connects. */
export interface ClusterSettings {
  redis: string;
  key: Buffer;
  advertiseUrl: URL;
  replicaId: string;
  heartbeatMs: number;
  drainMs: number;
}

/** Checks `options` at once (a short key, a bad URL): `createGateway` throws before it starts anything. */
export function checkClusterOptions(options: ClusterOptions): ClusterSettings {
  const key = typeof options.key === 'string' ? parseClusterKey(options.key) : checkClusterKey(options.key);
  let advertiseUrl: URL;
  try {
    advertiseUrl = new URL(options.advertiseUrl);
  } catch {
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      `the cluster's advertise URL must be an http(s) URL other replicas reach this one at, got "${options.advertiseUrl}"`,
      { recoverable: false },
    );
  }
  if (advertiseUrl.protocol !== 'http:' && advertiseUrl.protocol !== 'https:')
    throw new McpToolsError('INVALID_ARGUMENTS', 'the cluster advertise URL must be http:// or https://', {
      recoverable: false,
    });
  const replicaId = options.replicaId ?? randomUUID();
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(replicaId))
    throw new McpToolsError('INVALID_ARGUMENTS', 'a replica id is 1-64 letters, digits, ".", "_" or "-"', {
      recoverable: false,
    });
  return {
    redis: options.redis,
    key,
    advertiseUrl,
    replicaId,
    heartbeatMs: options.heartbeatMs ?? 1000,
    drainMs: options.drainMs ?? 10_000,
  };
}

/** What a request carried of {@link FORWARD_HEADER}: none, a valid one, or one that is not. */
export type ForwardCheck = 'none' | 'valid' | 'forged';

/**
 * One replica's membership in a cluster: its Redis connection, its heartbeat in the replica
 * registry, the 2025 session records, and the forwarding of requests between replicas (signed
 * with the cluster key). The 2026-07-28 hot path never touches it.
 */
export class ClusterNode {
  readonly settings: ClusterSettings;
  readonly redis: RedisConnection;
  readonly keys: RedisKeys;
  readonly registry: ReplicaRegistry;
  readonly sessions: SessionDirectory;
  /** Seals what the cluster keeps of a session in Redis (its record's fields, its events). */
  readonly seal: ClusterSeal;
  readonly #forwardKey: Buffer;
  /** Checks what other replicas forward here (and remembers their nonces). */
  readonly #forwarded: ForwardVerifier;
  /** Where the cluster's operational lines go (never a secret). */
  readonly log: (line: string) => void;
  /** Set by {@link drain}: `/readyz` fails and no new session is opened here. */
  draining = false;
  #released = false;
  /** A recovery is running (one at a time; a failed one tries again a heartbeat later). */
  #recovering = false;
  /** Where sessions held elsewhere were last found (principal + session → owner URL, profile). */
  readonly owners = new OwnerCache(10_000);
  readonly #held = new Map<string, Omit<SessionRecord, 'owner'>>();

  private constructor(settings: ClusterSettings, redis: RedisConnection, log: (line: string) => void) {
    this.settings = settings;
    this.redis = redis;
    this.log = log;
    const derived = deriveClusterKeys(settings.key);
    this.#forwardKey = derived.forward;
    this.#forwarded = new ForwardVerifier(derived.forward, settings.advertiseUrl.href.replace(/\/$/, ''));
    this.keys = new RedisKeys(derived.namespace, derived.names);
    this.seal = new ClusterSeal(derived.records, derived.keyId);
    const base = settings.advertiseUrl.href.replace(/\/$/, '');
    this.registry = new ReplicaRegistry(
      redis,
      this.keys,
      settings.replicaId,
      base,
      settings.heartbeatMs,
      () => {
        void this.#recover();
      },
    );
    this.sessions = new SessionDirectory(redis, this.keys, settings.replicaId, this.seal, log);
  }

  /** Connects to Redis and joins the registry; rejects (naming the redacted URL) when Redis is unreachable. */
  static async start(settings: ClusterSettings, log: (line: string) => void): Promise<ClusterNode> {
    const redis = await connectRedis(settings.redis, log);
    const node = new ClusterNode(settings, redis, log);
    try {
      await node.registry.start();
    } catch (error) {
      await redis.close();
      throw error;
    }
    log(`cluster: replica ${settings.replicaId} joined, advertised at ${settings.advertiseUrl.origin}`);
    return node;
  }

  get replicaId(): string {
    return this.settings.replicaId;
  }

  /** For `/readyz`: Redis answers and this replica is not draining. */
  get ready(): boolean {
    return !this.draining && this.registry.healthy;
  }

  /**
   * The caller a forwarded request's {@link FORWARD_HEADER} vouches for (signed by a replica of
   * this cluster for this one, fresh, its nonce unseen), or `undefined` when it does not. The
   * body is checked once read ({@link checkForwardedBody}). The nonce is remembered in this
   * process and claimed in Redis (`SET NX` until the header expires), so a replica restarted at
   * the same address within the window refuses a header its former process served; with Redis
   * away or slow, this process's memory alone decides.
   */
  async acceptForwarded(
    header: string,
    exchange: { method: string; path: string; sessionId: string },
  ): Promise<ForwardedCaller | undefined> {
    const caller = this.#forwarded.verify(header, exchange);
    if (caller === undefined || !this.redis.ready) return caller;
    const ttlMs = Math.max(1, caller.nonceUntil - Date.now());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), NONCE_CLAIM_TIMEOUT_MS);
    });
    const claim = this.redis
      .command(['SET', this.keys.forwardNonce(caller.nonce), '1', 'NX', 'PX', String(ttlMs)])
      .catch(() => 'timeout' as const);
    const reply = await Promise.race([claim, timeout]).finally(() => clearTimeout(timer));
    return reply === 'OK' || reply === 'timeout' ? caller : undefined;
  }

  /**
   * Whether `request` was forwarded (its header accepted at the front door), and whether its
   * body is the one signed: `none`, `valid`, or `forged`.
   */
  checkForwardedBody(request: Request, caller: ForwardedCaller | undefined, body: unknown): ForwardCheck {
    if (request.headers.get(FORWARD_HEADER) === null) return 'none';
    if (caller === undefined) return 'forged';
    return forwardedBodyMatches(caller, body === undefined ? '' : JSON.stringify(body)) ? 'valid' : 'forged';
  }

  /**
   * Forwards `request` (from `who`, verified here; body already parsed) to the replica at
   * `baseUrl`. The client's bearer token stays here: the owner gets `who` signed into the
   * forwarding header, bound to it, with a nonce.
   */
  forward(request: Request, baseUrl: string, who: Caller, body: unknown): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname + url.search;
    const text = body === undefined ? '' : JSON.stringify(body);
    const signature = signForward(
      this.#forwardKey,
      {
        target: baseUrl.replace(/\/$/, ''),
        method: request.method,
        path,
        sessionId: request.headers.get('mcp-session-id') ?? '',
      },
      who,
      text,
    );
    const requestId = echoableId(body);
    return forwardRequest(request, {
      baseUrl,
      path,
      signature,
      body: text,
      ...(requestId === null ? {} : { requestId }),
    });
  }

  /**
   * Records a 2025 session this replica holds: one it opened (`write`: stored in Redis now), or
   * one it adopted (its record is there already). Kept here too, so that a Redis that lost its
   * data (restarted without persistence) gets every held session back when it returns.
   */
  held(record: Omit<SessionRecord, 'owner'>, write: boolean): void {
    this.#held.set(record.id, { ...record, subscriptions: [...record.subscriptions] });
    if (write)
      this.sessions
        .create(record)
        .catch((error: unknown) => this.log(`cluster: could not record session: ${message(error)}`));
  }

  /** Records a session's log level and subscriptions. */
  changed(
    principal: string,
    id: string,
    state: { logLevel?: string; subscriptions: Iterable<string> },
  ): void {
    const held = this.#held.get(id);
    if (held) {
      if (state.logLevel !== undefined) held.logLevel = state.logLevel;
      held.subscriptions = [...state.subscriptions];
    }
    this.sessions
      .update(principal, id, state)
      .catch((error: unknown) => this.log(`cluster: could not record a session change: ${message(error)}`));
  }

  /** A session ended for good (DELETE, evicted): its record goes. Not after hand-over. */
  ended(principal: string, id: string): void {
    if (this.#released) return;
    this.#held.delete(id);
    this.sessions.remove(principal, id).catch(() => {});
  }

  /**
   * Redis came back: writes the record of every session held here again (it may have lost them).
   * A command that fails meanwhile (Redis flapping, still loading) does not end the recovery: it
   * is tried again a heartbeat later, until every record is written, so no session stays
   * unreachable from the other replicas.
   */
  async #recover(): Promise<void> {
    if (this.#released || this.#recovering) return;
    this.#recovering = true;
    let count = 0;
    try {
      for (const record of [...this.#held.values()]) {
        if (this.#released) return;
        if (!this.#held.has(record.id)) continue;
        if ((await this.sessions.get(record.principal, record.id)) === undefined) {
          await this.sessions.create(record);
          await this.sessions.update(record.principal, record.id, record);
          count++;
        }
      }
    } catch {
      setTimeout(() => void this.#recover(), this.settings.heartbeatMs).unref();
      return;
    } finally {
      this.#recovering = false;
      if (count > 0) this.log(`cluster: Redis is back; recorded ${count} session(s) it had lost`);
    }
  }

  /** Stops taking new sessions; `/readyz` fails from now on. */
  drain(): void {
    this.draining = true;
  }

  /** Hands this replica's sessions over and leaves the registry (others adopt at once). */
  async handOver(): Promise<void> {
    this.draining = true;
    this.#released = true;
    try {
      const count = await this.sessions.releaseAll();
      if (count > 0) this.log(`cluster: handed over ${count} session(s)`);
    } catch (error) {
      this.log(
        `cluster: could not hand sessions over (they are adopted once the heartbeat expires): ${message(error)}`,
      );
    }
    await this.registry.stop();
  }

  /** Leaves the cluster and closes the Redis connection. Idempotent. */
  async close(): Promise<void> {
    await this.registry.stop();
    await this.redis.close();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
