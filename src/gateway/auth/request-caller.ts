import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Caller } from '../../tool/call-context.js';
import type { DownstreamSession } from '../sessions/downstream-session.js';

/** A checked caller as the SDK's pass-through `authInfo` (how the HTTP faces hand it to the handlers). */
export function principalAuth(who: Caller): AuthInfo {
  return {
    token: 'gateway',
    clientId: who.principal,
    scopes: who.owner ? ['owner'] : [],
    extra: { caller: who },
  };
}

/** The caller a request's `authInfo` carries (see {@link principalAuth}). */
export function authCaller(authInfo: AuthInfo | undefined): Caller | undefined {
  return authInfo?.extra?.caller as Caller | undefined;
}

/**
 * `session` as the request with `authInfo` sees it: scopes, claims and the owner flag are those
 * of the token presented on this request, not of the one that opened the session (a 2025
 * session lives across requests, and its client may present a token with fewer scopes later).
 * The session itself when the request carries no caller of its own (stdio).
 */
export function requestSession(
  session: DownstreamSession,
  authInfo: AuthInfo | undefined,
): DownstreamSession {
  const caller = authCaller(authInfo);
  if (caller === undefined || caller === session.caller) return session;
  return { ...session, owner: caller.owner, caller };
}
