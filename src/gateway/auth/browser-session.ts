import { hkdfSync, randomBytes } from 'node:crypto';
import { ClusterSeal } from '../../crypto/cluster-seal.js';
import type { HeaderSource } from '../../http/header-source.js';
import type { Caller } from '../../tool/call-context.js';

/** The cookie naming the principal a browser signed in as at the front door. */
export const SESSION_COOKIE = 'mcptools_session';

/** Who a browser is, as its session cookie says: a principal signed in at the front door's issuer. */
export interface BrowserSession {
  /** A random id: the CSRF tokens of this session name it. */
  id: string;
  principal: string;
  subject: string;
  owner: boolean;
}

/** Claims a nonce once (in Redis in a cluster, in memory otherwise): `false` when it was used already. */
export type ClaimOnce = (nonce: string, ttlMs: number) => Promise<boolean>;

/** Settings of {@link BrowserSessions}. */
export interface BrowserSessionsOptions {
  /** The gateway's sealing secret (the cluster key, or a random key per process). */
  key: Uint8Array;
  claimOnce: ClaimOnce;
  /** Seconds a session lasts. */
  sessionSeconds: number;
}

/**
 * Sealed values a browser carries for the gateway (AES-256-GCM under a key derived from the
 * gateway's secret, so every replica of a cluster opens them and nothing else does): the
 * session cookie naming the principal, the state of a login or sign-in under way, CSRF tokens.
 * Each names its purpose (the associated data) and its expiry, so one kind never opens as
 * another and an old one is refused; nothing is kept on the server but the nonces of values
 * that may be used only once.
 */
export class BrowserSessions {
  readonly #seal: ClusterSeal;
  readonly #sessionSeconds: number;
  readonly claimOnce: ClaimOnce;

  constructor(options: BrowserSessionsOptions) {
    const key = Buffer.from(hkdfSync('sha256', options.key, 'mcptools-browser', 'browser-seal', 32));
    this.#seal = new ClusterSeal(key, 'b');
    this.#sessionSeconds = options.sessionSeconds;
    this.claimOnce = options.claimOnce;
  }

  /** `value` sealed for `purpose`, valid for `seconds`. */
  seal(purpose: string, value: Record<string, unknown>, seconds: number): string {
    return this.#seal.seal(JSON.stringify({ ...value, exp: Date.now() + seconds * 1000 }), purpose);
  }

  /** What `text` holds, if it was sealed here for `purpose` and has not expired; never throws. */
  open<T extends Record<string, unknown>>(purpose: string, text: string | null | undefined): T | undefined {
    if (typeof text !== 'string' || text.length === 0 || text.length > 16_384) return undefined;
    const plain = this.#seal.open(text, purpose);
    if (plain === undefined) return undefined;
    try {
      const value = JSON.parse(plain) as T & { exp?: unknown };
      if (typeof value.exp !== 'number' || value.exp <= Date.now()) return undefined;
      return value;
    } catch {
      return undefined;
    }
  }

  /** The session the request's cookie names, if it is valid. */
  sessionOf(request: HeaderSource): BrowserSession | undefined {
    const value = this.open<Partial<BrowserSession>>(
      SESSION_COOKIE,
      readCookie(request.headers.get('cookie'), SESSION_COOKIE),
    );
    if (
      typeof value?.id !== 'string' ||
      typeof value.principal !== 'string' ||
      typeof value.subject !== 'string' ||
      typeof value.owner !== 'boolean'
    )
      return undefined;
    return { id: value.id, principal: value.principal, subject: value.subject, owner: value.owner };
  }

  /** The `Set-Cookie` of a new session for `who` (a caller the login verified). */
  startSession(who: Caller, secure: boolean): string {
    const session: BrowserSession = {
      id: randomBytes(16).toString('base64url'),
      principal: who.principal,
      subject: who.subject ?? '',
      owner: who.owner,
    };
    const sealed = this.seal(SESSION_COOKIE, { ...session }, this.#sessionSeconds);
    return setCookie(SESSION_COOKIE, sealed, { path: '/', maxAge: this.#sessionSeconds, secure });
  }

  /** The caller a session stands for, on the pages a browser may use (never `/mcp`). */
  callerOf(session: BrowserSession): Caller {
    return Object.freeze({
      principal: session.principal,
      owner: session.owner,
      via: 'oauth',
      ...(session.subject === '' ? {} : { subject: session.subject }),
    });
  }

  /** A CSRF token for forms of `session`: sealed, naming the session, valid as long as it. */
  csrfToken(session: BrowserSession): string {
    return this.seal('csrf', { session: session.id }, this.#sessionSeconds);
  }

  /** Whether `token` is a CSRF token of `session`. */
  checkCsrf(session: BrowserSession, token: string | null): boolean {
    return this.open<{ session?: unknown }>('csrf', token)?.session === session.id;
  }
}

/** One cookie's value from a `Cookie` header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/**
 * A `Set-Cookie` value: HttpOnly, `SameSite=Lax` (sent on the top-level navigation back from the
 * issuer, never on a cross-site POST), `Secure` when the gateway is reached over https, and
 * scoped to `path`. `maxAge` 0 clears it.
 */
export function setCookie(
  name: string,
  value: string,
  options: { path: string; maxAge: number; secure: boolean },
): string {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** A memory of used nonces until they expire: the single-process {@link ClaimOnce}. */
export function memoryNonces(): ClaimOnce {
  const used = new Map<string, number>();
  return async (nonce, ttlMs) => {
    const now = Date.now();
    if (used.size > 10_000) for (const [old, until] of used) if (until <= now) used.delete(old);
    const until = used.get(nonce);
    if (until !== undefined && until > now) return false;
    used.set(nonce, now + ttlMs);
    return true;
  };
}
