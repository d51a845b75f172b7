import type { AuthInfo, LoggingLevel, Server } from '@modelcontextprotocol/server';
import type { RequestStateBinding } from '../../cluster/request-state-seal.js';
import type { ProtocolEra } from '../../mcp/hub-types.js';
import type { CallContext, Caller } from '../../tool/call-context.js';
import type { RequestPrincipal } from '../auth/http-guard.js';
import { authCaller } from '../auth/request-caller.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';

/**
 * A call in flight on a session, as the session holds it: counted, and cancelled when the
 * session ends (the gateway's `DownstreamCall`).
 */
export interface SessionCall {
  cancel(reason: string): void;
}

/**
 * One downstream client as the gateway sees it: a 2025-era session (HTTP `Mcp-Session-Id` or a
 * stdio connection), or one 2026-07-28 request (stateless: each request is its own session,
 * and a call that returned `input_required` keeps its session across the retries).
 */
export interface DownstreamSession {
  readonly id: string;
  readonly era: ProtocolEra;
  /** `true` when the client presented the owner token (or came over stdio). */
  readonly owner: boolean;
  /** Who authenticated: a hash-derived id of the token presented, `stdio`, or `anonymous`. */
  readonly principal: string;
  /** Everything the front door learned about the caller (scopes, claims); absent over stdio. */
  readonly caller?: RequestPrincipal;
  /** Calls in flight from this session. */
  readonly calls: Set<SessionCall>;
  /** The server instance serving it (2025 era and stdio), for notifications. */
  server?: Server;
  /** The level the client asked for with `logging/setLevel`; no upstream logs without one. */
  logLevel?: LoggingLevel;
  /** The profile it is served under (which tool list changes it hears). */
  profile?: GatewayProfile;
  /** Whether the profile it was served under admits `server` (its logs, its resources). */
  allowsServer?: (server: string) => boolean;
  /** Wrapped resource URIs the client subscribed to (2025 era). */
  readonly subscriptions: Set<string>;
  /** Wrapped URI → the URI the client subscribed by, where that is not the wrapped one. */
  readonly subscribedAs: Map<string, string>;
  /** Called after the client changed its log level or subscriptions (cluster mode records them). */
  onChange?: () => void;
  /** Set when the session ended. */
  ended: boolean;
}

/** A new session record. */
export function createSession(
  id: string,
  era: ProtocolEra,
  owner: boolean,
  principal: string,
  caller?: RequestPrincipal,
): DownstreamSession {
  return {
    id,
    era,
    owner,
    principal,
    ...(caller === undefined ? {} : { caller }),
    calls: new Set(),
    subscriptions: new Set(),
    subscribedAs: new Map(),
    ended: false,
  };
}

/**
 * The context of a request of `session` that is not a call (a list, a completion, a
 * subscription): its caller and signal, nothing relayed. The hub routes it by that caller.
 */
export function sessionContext(session: DownstreamSession, signal?: AbortSignal): CallContext {
  return { toolCallId: '', caller: callerOf(session), ...(signal === undefined ? {} : { signal }) };
}

/** The caller of `session`'s requests: what the front door learned, or the principal and owner flag alone (stdio). */
export function callerOf(session: DownstreamSession): Caller {
  if (session.caller !== undefined) return session.caller;
  return session.principal === 'stdio'
    ? { principal: 'stdio', owner: true, via: 'stdio' }
    : { principal: session.principal, owner: session.owner };
}

/**
 * What a `requestState` or task id sealed for `session` is bound to: `method`, the session's
 * principal and its OAuth client, so another client of the same user cannot replay it.
 */
export function stateBinding(session: DownstreamSession, method: string): RequestStateBinding {
  return { method, principal: session.principal, client: session.caller?.clientId };
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
