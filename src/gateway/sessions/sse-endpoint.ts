import { randomUUID } from 'node:crypto';
import type { RequestPrincipal } from '../auth/http-guard.js';
import { principalAuth } from '../auth/request-caller.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import { createSession, type DownstreamSession } from './downstream-session.js';
import { countOf, endIdleOf, holdersOf } from './session-entries.js';
import type { SessionHost, SessionServerFactory } from './session-host.js';
import { SseServerTransport } from './sse-server-transport.js';

/** Where HTTP+SSE clients POST their messages (the `endpoint` event names the first). */
export const SSE_MESSAGE_PATHS = ['/messages', '/message', '/messages/', '/message/'];

/** What an HTTP+SSE path asks for: the event stream of a profile, or a POSTed message. */
export type SseRoute = { kind: 'stream'; profile: string } | { kind: 'message' };

/**
 * The 2024-11-05 HTTP+SSE paths (the ones the SDK v1 examples, mcp-proxy and the MCP Inspector
 * use): `GET /sse` (or `/sse/<profile>`) opens a session's event stream, `POST /messages` or
 * `/message` with `?sessionId=` (or the Python SDK's `?session_id=`) carries its messages.
 * A `GET /mcp` (or `/mcp/<profile>`) that asks for an event stream without `Mcp-Session-Id`
 * opens one too: that is how an HTTP+SSE client given the Streamable HTTP URL starts (the
 * protocol's backwards-compatibility rule lets a server host the old SSE endpoint at the new
 * URL; a Streamable HTTP client never sends that request).
 */
export function sseRoute(
  method: string,
  pathname: string,
  headers: { get(name: string): string | null },
): SseRoute | undefined {
  if (method === 'GET') {
    const match = /^\/(sse|mcp)(?:\/([A-Za-z0-9_-]{1,64}))?\/?$/.exec(pathname);
    if (match === null) return undefined;
    if (
      match[1] === 'mcp' &&
      (headers.get('mcp-session-id') !== null || !headers.get('accept')?.includes('text/event-stream'))
    )
      return undefined;
    return { kind: 'stream', profile: match[2] ?? '' };
  }
  if (method === 'POST' && SSE_MESSAGE_PATHS.includes(pathname)) return { kind: 'message' };
  return undefined;
}

interface SseEntry {
  transport: SseServerTransport;
  session: DownstreamSession;
}

/**
 * The gateway's HTTP+SSE sessions: 2025-era sessions (the same {@link DownstreamSession}
 * machinery as the Streamable HTTP ones: progress, cancellation, server→client requests and
 * notifications reach them), each on its own event stream. The front door (token, Host and
 * Origin, body cap) is the caller's; the session cap is shared through `makeRoom`.
 */
export class SseSessions {
  readonly #core: SessionHost;
  readonly #serverFor: SessionServerFactory;
  readonly #sessions = new Map<string, SseEntry>();

  constructor(core: SessionHost, serverFor: SessionServerFactory) {
    this.#core = core;
    this.#serverFor = serverFor;
  }

  /** Sessions open now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Opens a session of `profile` for `who`: its event stream, ended when `signal` aborts. */
  async open(profile: GatewayProfile, who: RequestPrincipal, signal: AbortSignal): Promise<Response> {
    const session = createSession(randomUUID(), '2025', who.owner, who.principal, who);
    const transport = new SseServerTransport(session.id, `/messages?sessionId=${session.id}`);
    const server = this.#serverFor(profile, session);
    transport.onclose = () => {
      this.#sessions.delete(session.id);
      this.#core.endSession(session);
    };
    this.#sessions.set(session.id, { transport, session });
    this.#core.sessions.add(session);
    await server.connect(transport);
    return transport.stream(signal);
  }

  /**
   * A POSTed message for the session its URL names, served with the scopes, claims and owner
   * flag of the token `who` presented on this POST (as a Streamable HTTP session's request is);
   * 404 for an unknown session, or another principal's or OAuth client's.
   */
  post(url: URL, who: RequestPrincipal, body: unknown): Response {
    const entry = this.#entry(url, who);
    if (entry === undefined) return new Response('Session not found\n', { status: 404 });
    // Most recently used last: the first idle one is ended when the cap is reached.
    this.#sessions.delete(entry.session.id);
    this.#sessions.set(entry.session.id, entry);
    return entry.transport.receive(body, principalAuth(who));
  }

  /** The profile of the session `url` names, when it is `who`'s (see {@link post}). */
  profileOf(url: URL, who: RequestPrincipal): GatewayProfile | undefined {
    const entry = this.#entry(url, who);
    return entry?.session.profile;
  }

  #entry(url: URL, who: RequestPrincipal): SseEntry | undefined {
    const id = url.searchParams.get('sessionId') ?? url.searchParams.get('session_id');
    const entry = id === null ? undefined : this.#sessions.get(id);
    if (
      entry === undefined ||
      entry.session.principal !== who.principal ||
      entry.session.caller?.clientId !== who.clientId
    )
      return undefined;
    return entry;
  }

  /** Sessions open now of `principal`. */
  count(principal: string): number {
    return countOf(this.#sessions.values(), principal);
  }

  /** The principals holding sessions here, with how many each holds. */
  holders(): Map<string, number> {
    return holdersOf(this.#sessions.values());
  }

  /**
   * Ends the least recently used session with no call in flight (of `principal`, when given);
   * `false` when every one has calls.
   */
  async endIdle(principal?: string): Promise<boolean> {
    return endIdleOf(this.#sessions.values(), principal);
  }

  /** Ends every session. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#sessions.values()].map((entry) => entry.transport.close()));
  }
}
