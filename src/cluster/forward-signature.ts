import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Caller } from '../tool/call-context.js';

/**
 * The header a replica puts on a request it forwards to another, instead of the client's
 * bearer token: `v2.<unix ms>.<nonce>.<caller>.<body digest>.<MAC>`, the caller the forwarding
 * replica verified as base64url JSON.
 */
export const FORWARD_HEADER = 'mcptools-forwarded';

/** A forwarded request older (or newer) than this is refused: clocks of one cluster agree this well. */
const MAX_SKEW_MS = 30_000;

/** Nonces remembered at most (the oldest are forgotten first); far more than a replica forwards in a window. */
const MAX_NONCES = 100_000;

/** What a forwarding MAC covers besides the caller and the body's digest. */
export interface ForwardedExchange {
  /** The advertised base URL of the replica the request is forwarded to (no trailing `/`). */
  target: string;
  method: string;
  /** The request's path (and query). */
  path: string;
  /** The `Mcp-Session-Id` it carries, or `''`. */
  sessionId: string;
}

/** What a forwarding header vouches for, once its MAC is checked. */
export interface ForwardedCaller {
  /** The caller as the forwarding replica's front door verified it. */
  who: Caller;
  /** The SHA-256 of the body sent (base64url): the body read must have it (see {@link forwardedBodyMatches}). */
  bodyDigest: string;
  /** The header's nonce, and until when (ms since the epoch) it must be remembered cluster-wide. */
  nonce: string;
  nonceUntil: number;
}

const bodyDigestOf = (body: string) => createHash('sha256').update(body).digest('base64url');

function mac(
  key: Buffer,
  exchange: ForwardedExchange,
  time: string,
  nonce: string,
  caller: string,
  bodyDigest: string,
): Buffer {
  return createHmac('sha256', key)
    .update(
      [
        'v2',
        exchange.target,
        exchange.method,
        exchange.path,
        exchange.sessionId,
        time,
        nonce,
        caller,
        bodyDigest,
      ].join('\n'),
    )
    .digest();
}

/**
 * The {@link FORWARD_HEADER} value for `exchange` from `who` with `body`, signed now with the
 * cluster's forwarding key: bound to the target replica, a fresh nonce in it.
 */
export function signForward(
  key: Buffer,
  exchange: ForwardedExchange,
  who: Caller,
  body: string,
  now = Date.now(),
): string {
  const time = String(now);
  const nonce = randomBytes(16).toString('base64url');
  const caller = Buffer.from(JSON.stringify(who)).toString('base64url');
  const digest = bodyDigestOf(body);
  return `v2.${time}.${nonce}.${caller}.${digest}.${mac(key, exchange, time, nonce, caller, digest).toString('base64url')}`;
}

/** Whether `body` (as read, `''` for none) is the body a checked forwarding header was signed for. */
export function forwardedBodyMatches(caller: ForwardedCaller, body: string): boolean {
  return timingSafeEqual(Buffer.from(bodyDigestOf(body)), Buffer.from(caller.bodyDigest));
}

/**
 * Checks forwarding headers arriving at one replica: a valid MAC of this cluster, made for this
 * replica, within {@link MAX_SKEW_MS}, with a nonce not seen before. Each nonce is remembered
 * until its header expires, so a forwarded request captured on the way (`serve` speaks plain
 * HTTP) is served once: replayed to this replica it is refused, and to another its MAC is not
 * that replica's.
 */
export class ForwardVerifier {
  readonly #key: Buffer;
  readonly #self: string;
  readonly #now: () => number;
  /** Nonce → when it may be forgotten (its header is refused by then). In arrival order. */
  readonly #seen = new Map<string, number>();

  constructor(key: Buffer, self: string, now: () => number = Date.now) {
    this.#key = key;
    this.#self = self;
    this.#now = now;
  }

  /** The caller `header` vouches for, or `undefined` (forged, another replica's, stale, replayed). */
  verify(header: string, exchange: Omit<ForwardedExchange, 'target'>): ForwardedCaller | undefined {
    const match = /^v2\.(\d{1,15})\.([\w-]{22})\.([\w-]+)\.([\w-]{43})\.([\w-]{43})$/.exec(header);
    if (!match) return undefined;
    const [, time, nonce, caller, bodyDigest, presented] = match as unknown as string[];
    const now = this.#now();
    if (Math.abs(now - Number(time)) > MAX_SKEW_MS) return undefined;
    const expected = mac(this.#key, { ...exchange, target: this.#self }, time!, nonce!, caller!, bodyDigest!);
    if (!timingSafeEqual(expected, Buffer.from(presented!, 'base64url'))) return undefined;
    this.#forget(now);
    if (this.#seen.has(nonce!)) return undefined;
    this.#seen.set(nonce!, Number(time) + MAX_SKEW_MS);
    let who: Caller;
    try {
      who = JSON.parse(Buffer.from(caller!, 'base64url').toString('utf8')) as Caller;
    } catch {
      return undefined;
    }
    if (typeof who?.principal !== 'string' || typeof who.owner !== 'boolean') return undefined;
    return { who, bodyDigest: bodyDigest!, nonce: nonce!, nonceUntil: Number(time) + MAX_SKEW_MS };
  }

  /** Forgets the nonces whose headers have expired (and the oldest, past {@link MAX_NONCES}). */
  #forget(now: number): void {
    for (const [nonce, until] of this.#seen) {
      if (until >= now && this.#seen.size < MAX_NONCES) break;
      this.#seen.delete(nonce);
    }
  }
}
