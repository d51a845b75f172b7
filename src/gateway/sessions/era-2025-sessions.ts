import { randomUUID } from 'node:crypto';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { ClusterNode } from '../../cluster/cluster-node.js';
import { serveRemoteSession } from '../../cluster/remote-session.js';
import { replayInitialize } from '../../cluster/replay-initialize.js';
import type { SessionRecord } from '../../cluster/session-directory.js';
import { jsonRpcError } from '../../http/json-rpc-error-response.js';
import type { RequestPrincipal } from '../auth/http-guard.js';
import { principalAuth } from '../auth/request-caller.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import type { ClientArrivals } from './client-arrivals.js';
import { createSession, type DownstreamSession } from './downstream-session.js';
import { openEventStream } from './event-stream-open.js';
import { releasedWithBody } from './released-with-body.js';
import { ResumableStreams } from './resumable-streams.js';
import { countOf, endIdleOf, holdersOf } from './session-entries.js';
import type { SessionEventStores } from './session-event-stores.js';
import type { SessionHost, SessionServerFactory } from './session-host.js';

/** How a client waits before it resumes a response stream that ended (the SSE `retry` field). */
const RETRY_INTERVAL_MS = 1000;

/** What {@link Era2025Sessions} is built from: the gateway's parts it serves sessions with. */
export interface Era2025SessionsOptions {
  core: SessionHost;
  /** The SDK server of a session. */
  serverFor: SessionServerFactory;
  maxBodyBytes: number;
  /** Where response streams keep their events; none: streams are not resumable. */
  eventStores: SessionEventStores | undefined;
  resumeGraceMs: number;
  arrivals: ClientArrivals;
  log: (line: string) => void;
  /** The cluster this replica has joined, once it has (cluster mode). */
  cluster: () => ClusterNode | undefined;
  /** Below the session caps for `principal`, or the refusal (ends an idle session to make room). */
  makeRoom: (principal: string) => Promise<Response | undefined>;
  /** Holds `session`'s subscription `named` again, for a session adopted from another replica (a failure is logged). */
  adoptSubscription: (profile: GatewayProfile, session: DownstreamSession, named: string) => Promise<void>;
  /**
   * A session unused this long, with no call in flight and no GET stream open, is ended (its
   * client gets 404 and opens another). Default: never.
   */
  idleMs?: number;
}

interface Era2025Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  session: DownstreamSession;
  profile: GatewayProfile;
  /** Its resumable response streams (unless the gateway keeps no event store). */
  resumable?: ResumableStreams;
  /** When a request of it last arrived (`Date.now()`). */
  usedAt: number;
  /** Its GET streams open now (a client listening is using its session). */
  streams: number;
}

/**
 * The gateway's 2025-era Streamable HTTP sessions (`initialize`, `Mcp-Session-Id`, the GET
 * stream, `DELETE`): opened here, served here, and in cluster mode forwarded to the replica
 * that owns them or adopted from one that died or handed them over.
 */
export class Era2025Sessions {
  readonly #options: Era2025SessionsOptions;
  /** Held sessions by id, least recently used first. */
  readonly #entries = new Map<string, Era2025Entry>();
  readonly #sweep: NodeJS.Timeout | undefined;

  constructor(options: Era2025SessionsOptions) {
    this.#options = options;
    const idleMs = options.idleMs;
    if (idleMs !== undefined) {
      // A tenth of the idle time, at most a minute: a session ends at most that late.
      this.#sweep = setInterval(() => void this.endUnused(), Math.min(60_000, Math.max(100, idleMs / 10)));
      this.#sweep.unref();
    }
  }

  /** How many sessions this process holds, in all or of `principal`. */
  count(principal?: string): number {
    if (principal === undefined) return this.#entries.size;
    return countOf(this.#entries.values(), principal);
  }

  /** How many sessions this process holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** The principals holding sessions here, with how many each holds. */
  holders(): Map<string, number> {
    return holdersOf(this.#entries.values());
  }

  /**
   * Ends the least recently used session with no call in flight (of `principal`, when given);
   * `false` when every one is busy.
   */
  async endIdle(principal?: string): Promise<boolean> {
    return endIdleOf(this.#entries.values(), principal);
  }

  /** Ends every session unused for `idleMs`, with no call in flight and no GET stream open. */
  async endUnused(): Promise<void> {
    const idleMs = this.#options.idleMs;
    if (idleMs === undefined) return;
    const before = Date.now() - idleMs;
    const unused: Era2025Entry[] = [];
    // Every entry is looked at: a GET stream that ended marks its session used without moving it.
    for (const entry of this.#entries.values())
      if (entry.usedAt < before && entry.session.calls.size === 0 && entry.streams === 0) unused.push(entry);
    for (const entry of unused) await entry.transport.close().catch(() => {});
    if (unused.length > 0)
      this.#options.log(`http: ended ${unused.length} 2025 session(s) unused for ${idleMs} ms`);
  }

  /** Closes every session's transport (the gateway is closing). */
  close(): Promise<unknown> {
    clearInterval(this.#sweep);
    return Promise.allSettled([...this.#entries.values()].map((entry) => entry.transport.close()));
  }

  /**
   * Serves a 2025-era request to `profile`: a new session's `initialize`, or a request of a
   * session held here, owned by another replica (forwarded), or adopted. `forwarded`: another
   * replica of the cluster sent it here (its signature checked).
   */
  async serve(
    profile: GatewayProfile,
    request: Request,
    who: RequestPrincipal,
    body: unknown,
    forwarded: boolean,
  ): Promise<Response> {
    const cluster = this.#options.cluster();
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const entry = this.#entries.get(sessionId);
      if (entry === undefined && cluster !== undefined) {
        // Forwarded here, but no longer held here (handed over): the forwarding replica looks again.
        if (forwarded) return jsonRpcError(421, -32001, 'Session not held by this replica');
        return serveRemoteSession(cluster, {
          request,
          who,
          principal: who.principal,
          body,
          sessionId,
          profile: profile.name,
          adopt: (record) => this.#adopt(profile, who, record, request.url),
          serveLocal: () => {
            const adopted = this.#entries.get(sessionId);
            return adopted === undefined
              ? Promise.resolve(jsonRpcError(404, -32001, 'Session not found'))
              : this.#serveEntry(adopted, request, body, who);
          },
        });
      }
      // A session is the principal's and its client's: another principal, or another OAuth
      // client of the same principal, finds no such session.
      if (
        entry === undefined ||
        entry.profile !== profile ||
        entry.session.principal !== who.principal ||
        entry.session.caller?.clientId !== who.clientId
      )
        return jsonRpcError(404, -32001, 'Session not found');
      return this.#serveEntry(entry, request, body, who);
    }
    if (request.method !== 'POST')
      return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (!isInitializeRequest(body))
      return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (cluster?.draining)
      return jsonRpcError(503, -32000, 'this replica is draining; open the session elsewhere');
    const full = await this.#options.makeRoom(who.principal);
    if (full) return full;
    const { transport } = await this.#open(profile, who, randomUUID(), body);
    return transport.handleRequest(request, { parsedBody: body, authInfo: principalAuth(who) });
  }

  /** A session's transport and server, connected; it is kept once `initialize` succeeds. */
  async #open(
    profile: GatewayProfile,
    who: RequestPrincipal,
    id: string,
    body: unknown,
    adopted?: SessionRecord,
  ) {
    const { core, eventStores, resumeGraceMs, arrivals, serverFor, maxBodyBytes } = this.#options;
    const cluster = this.#options.cluster();
    const session = createSession(id, '2025', who.owner, who.principal, who);
    const resumable = eventStores
      ? new ResumableStreams(eventStores.forSession(session.id, session.principal), resumeGraceMs)
      : undefined;
    const end = () => {
      this.#entries.delete(session.id);
      core.endSession(session);
      this.#options.cluster()?.ended(session.principal, session.id);
      if (eventStores) {
        resumable?.close();
        void Promise.resolve(eventStores.dropSession(session.id, session.principal)).catch(() => {});
      }
    };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => session.id,
      onsessioninitialized: () => {
        this.#entries.set(session.id, {
          transport,
          session,
          profile,
          ...(resumable ? { resumable } : {}),
          usedAt: Date.now(),
          streams: 0,
        });
        core.sessions.add(session);
        if (adopted === undefined) arrivals.session(body);
        this.#options.cluster()?.held(
          {
            id: session.id,
            principal: session.principal,
            profile: profile.name,
            initialize: adopted?.initialize ?? body,
            subscriptions: [],
          },
          adopted === undefined,
        );
      },
      onsessionclosed: end,
      maxRequestBodySize: maxBodyBytes,
      ...(resumable ? { eventStore: resumable.eventStore, retryInterval: RETRY_INTERVAL_MS } : {}),
    });
    transport.onclose = end;
    if (cluster) {
      const node = cluster;
      session.onChange = () =>
        node.changed(session.principal, session.id, {
          ...(session.logLevel === undefined ? {} : { logLevel: session.logLevel }),
          subscriptions: core.subscriptionNames(session),
        });
    }
    const server = serverFor(profile, session);
    await server.connect(transport);
    return { transport, session };
  }

  /** Rebuilds a session another replica owned (it died or handed it over) from its record. */
  async #adopt(profile: GatewayProfile, who: RequestPrincipal, record: SessionRecord, url: string) {
    const { log } = this.#options;
    const { transport, session } = await this.#open(profile, who, record.id, record.initialize, record);
    await replayInitialize(transport, record.initialize, url);
    if (record.logLevel !== undefined) session.logLevel = record.logLevel as DownstreamSession['logLevel'];
    // The record holds each subscription by the name it was asked by: the same name after adoption.
    for (const named of record.subscriptions) await this.#options.adoptSubscription(profile, session, named);
    session.onChange?.();
    log(
      `cluster: adopted a session from ${record.owner === '' ? 'a replica that handed it over' : `replica ${record.owner}`}`,
    );
  }

  /**
   * Serves one request of a held session. `who` is the caller of this request: its handlers see
   * the scopes and claims of the token presented now (`authInfo`), not of the one that opened it.
   */
  async #serveEntry(
    entry: Era2025Entry,
    request: Request,
    body: unknown,
    who: RequestPrincipal,
  ): Promise<Response> {
    // Most recently used last: the first idle one is ended when the cap is reached.
    this.#entries.delete(entry.session.id);
    this.#entries.set(entry.session.id, entry);
    entry.usedAt = Date.now();
    const { transport, resumable } = entry;
    if (request.method === 'GET') {
      const open = async (get: Request) => openEventStream(await transport.handleRequest(get), get.signal);
      // A session whose client holds a GET stream is in use however long since its last request.
      entry.streams++;
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        entry.streams--;
        entry.usedAt = Date.now();
      };
      request.signal.addEventListener('abort', close, { once: true });
      const opened = await (resumable ? resumable.get(request, open) : open(request)).catch(
        (error: unknown) => {
          close();
          throw error;
        },
      );
      return releasedWithBody(opened, close);
    }
    const authInfo = principalAuth(who);
    const handle = (post: Request) =>
      transport.handleRequest(post, body === undefined ? { authInfo } : { parsedBody: body, authInfo });
    if (resumable === undefined || request.method !== 'POST') return handle(request);
    return resumable.post(request, entry.session.server?.getNegotiatedProtocolVersion(), handle);
  }
}
