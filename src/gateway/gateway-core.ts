import { randomUUID } from 'node:crypto';
import type { InputRequiredResult, LoggingLevel, McpHttpHandler, Result } from '@modelcontextprotocol/server';
import {
  type RequestStateBinding,
  type RequestStatePayload,
  RequestStateSeal,
} from '../cluster/request-state-seal.js';
import type { McpToolHub, UpstreamNotification } from '../mcp/hub-types.js';
import type { DownstreamCall } from './calls/downstream-call.js';
import { ParkedScriptBytes } from './calls/parked-script-bytes.js';
import { RelayContinuations } from './calls/relay-continuations.js';
import { type ScriptTaskLimits, ScriptTasks } from './calls/script-tasks.js';
import { routeUpstreamLog, sendToSession } from './calls/upstream-log.js';
import type { GatewayProfile } from './profiles/gateway-profile.js';
import { ToolListAnnouncer, type ToolListChange } from './profiles/tool-list-announcer.js';
import type { ResourceHost } from './resources/resource-host.js';
import { ResourceIndex } from './resources/resource-index.js';
import type { ResourceTarget } from './resources/resource-routing.js';
import { wrapResourceUri } from './resources/resource-uri.js';
import { type SubscriptionState, UpstreamSubscriptions } from './resources/upstream-subscriptions.js';
import { type DownstreamSession, stateBinding } from './sessions/downstream-session.js';

/**
 * What every downstream connection of one gateway shares: the profiles, the sessions that get
 * notifications, the calls in flight, the 2026-07-28 calls parked on `input_required`, and the
 * upstream resource subscriptions (reference-counted: one upstream subscription per URI,
 * however many sessions asked).
 */
export class GatewayCore implements ResourceHost {
  readonly hub: McpToolHub;
  readonly separator: string;
  readonly profiles = new Map<string, GatewayProfile>();
  /** Sessions that receive notifications: 2025-era HTTP sessions and stdio connections. */
  readonly sessions = new Set<DownstreamSession>();
  /** The 2026-07-28 HTTP handlers, whose `subscriptions/listen` streams get change events. */
  readonly era2026Handlers = new Map<McpHttpHandler, GatewayProfile>();
  readonly calls = new Set<DownstreamCall>();
  /** Which upstream server offers which resource URI (reads, subscriptions, completions route by it). */
  readonly resources: ResourceIndex;
  closing = false;
  /** Seals and opens the 2026-07-28 `requestState` (see request-state-seal.ts). */
  readonly requestStates: RequestStateSeal;
  /** Names this process among replicas sharing a `requestStateKey` (a parked call's state names it). */
  readonly replicaId: string;
  /** The memory of code-mode scripts waiting for their callers' answers, per principal. */
  readonly parkedScripts: ParkedScriptBytes;
  /** The `run_script` calls this replica runs as tasks (see script-tasks.ts). */
  readonly scriptTasks: ScriptTasks;
  /** The retries of relayed `input_required` rounds seen (a cluster shares them). */
  readonly relayContinuations = new RelayContinuations();
  readonly #parked = new Map<string, { call: DownstreamCall; timer: NodeJS.Timeout }>();
  readonly #subscriptions: UpstreamSubscriptions;
  readonly #inputTimeoutMs: number;
  readonly #unlinkedParkMs: number;
  readonly #parkedCalls: { total: number; perPrincipal: number };
  readonly #log: (line: string) => void;

  constructor(
    hub: McpToolHub,
    options: {
      separator: string;
      inputTimeoutMs: number;
      /** How long a call stays parked when an upstream asked it without a link (default `inputTimeoutMs`). */
      unlinkedParkMs?: number;
      /** Calls parked at once, in all and per principal (default: unbounded). */
      parkedCalls?: { total: number; perPrincipal: number };
      /** Bytes of parked code-mode scripts, in all and per principal (default: unbounded). */
      parkedScriptBytes?: { total: number; perPrincipal: number };
      /** `run_script` calls run as tasks: alive at once, in all and per principal, and their time to live. */
      scriptTasks?: ScriptTaskLimits;
      log: (line: string) => void;
      requestStateKey?: Uint8Array | undefined;
      replicaId?: string | undefined;
      /** The servers each caller reaches with their own credentials (the resource index lists none of them). */
      perCaller?: (server: string) => boolean;
    },
  ) {
    this.hub = hub;
    this.requestStates = new RequestStateSeal({
      ...(options.requestStateKey === undefined ? {} : { key: options.requestStateKey }),
      ttlMs: options.inputTimeoutMs,
    });
    this.replicaId = options.replicaId ?? randomUUID();
    this.separator = options.separator;
    this.#inputTimeoutMs = options.inputTimeoutMs;
    this.#parkedCalls = options.parkedCalls ?? { total: Infinity, perPrincipal: Infinity };
    this.parkedScripts = new ParkedScriptBytes(
      options.parkedScriptBytes ?? { total: Infinity, perPrincipal: Infinity },
    );
    this.scriptTasks = new ScriptTasks(
      options.scriptTasks ?? { total: 200, perPrincipal: 200, ttlMs: 60 * 60_000 },
    );
    this.#unlinkedParkMs = Math.min(options.unlinkedParkMs ?? options.inputTimeoutMs, options.inputTimeoutMs);
    this.#log = options.log;
    this.resources = new ResourceIndex(hub, options.perCaller);
    this.#subscriptions = new UpstreamSubscriptions(
      hub,
      {
        restored: (wrapped, server, subscribers) => this.#sendUpdated(server, wrapped, subscribers),
        lost: (wrapped, server, subscribers, reason) => {
          const log = {
            level: 'warning' as const,
            logger: 'mcptools',
            data: `the subscription to ${wrapped} ended: ${reason}`,
          };
          for (const session of subscribers) if (session.era === '2025') sendToSession(session, server, log);
          // Read again, a client finds out what became of the resource.
          this.#sendUpdated(server, wrapped, subscribers);
        },
      },
      (line) => this.#log(line),
    );
  }

  log(line: string): void {
    this.#log(line);
  }

  beginCall(call: DownstreamCall): void {
    this.calls.add(call);
    call.session.calls.add(call);
  }

  endCall(call: DownstreamCall): void {
    this.calls.delete(call);
    call.session.calls.delete(call);
  }

  /**
   * One 2026-07-28 round of `call`; a final answer or a relayed `input_required` ends the call,
   * its own `input_required` parks it. Either `requestState` is sealed, bound to the call's
   * method, principal and OAuth client.
   */
  round(call: DownstreamCall, signal: AbortSignal): Promise<Result | InputRequiredResult> {
    const binding = stateBinding(call.session, call.method);
    return call.round(signal, {
      parked: () => {
        this.#park(call);
        return this.requestStates.seal(
          { kind: 'parked', replica: this.replicaId, call: call.id, round: call.rounds },
          binding,
        );
      },
      relayed: (payload) => this.requestStates.seal(payload, binding),
      ended: () => this.endCall(call),
    });
  }

  /**
   * The payload of a retry's `requestState` (the SDK's `requestState.verify` hook); throws
   * for one that does not open for `binding` (method, principal, client), and the SDK answers
   * `-32602` without a reason.
   */
  openRequestState(state: string, binding: RequestStateBinding): RequestStatePayload {
    const payload = this.requestStates.open(state, binding);
    if (payload === undefined) throw new Error('requestState refused');
    return payload;
  }

  /**
   * The parked call `id` at its round `round`, if `session`'s principal and client parked it
   * with a request of `method` (a retry names the method it retries); it is no longer parked
   * afterwards.
   */
  takeParked(
    id: string,
    session: DownstreamSession,
    method: DownstreamCall['method'],
    round: number,
  ): DownstreamCall | undefined {
    const entry = this.#parked.get(id);
    if (
      entry === undefined ||
      entry.call.session.principal !== session.principal ||
      entry.call.session.caller?.clientId !== session.caller?.clientId ||
      entry.call.method !== method ||
      entry.call.rounds !== round
    )
      return undefined;
    clearTimeout(entry.timer);
    this.#parked.delete(id);
    return entry.call;
  }

  /** How many 2026-07-28 calls are parked, waiting for their client's retry. */
  get parkedCount(): number {
    return this.#parked.size;
  }

  /**
   * Room for one more parked call of `principal`: at its quota its own oldest parked call is
   * cancelled; at the global cap, the oldest of the principal holding the most. Another
   * principal's parked call never makes room for a principal at its quota.
   */
  #makeParkRoom(principal: string): void {
    const held = new Map<string, DownstreamCall[]>();
    for (const { call } of this.#parked.values()) {
      const calls = held.get(call.session.principal);
      if (calls === undefined) held.set(call.session.principal, [call]);
      else calls.push(call);
    }
    const mine = held.get(principal) ?? [];
    let dropped: DownstreamCall | undefined;
    if (mine.length >= this.#parkedCalls.perPrincipal) dropped = mine[0];
    else if (this.#parked.size >= this.#parkedCalls.total)
      dropped = [...held.values()].sort((a, b) => b.length - a.length)[0]?.[0];
    if (dropped === undefined) return;
    const entry = this.#parked.get(dropped.id);
    if (entry !== undefined) clearTimeout(entry.timer);
    this.#parked.delete(dropped.id);
    dropped.cancel('too many calls of this caller are waiting for input; the oldest was cancelled');
    this.endCall(dropped);
    this.#log('gateway: cancelled a parked call to stay within the parked-call limits');
  }

  #park(call: DownstreamCall): void {
    call.logTo = undefined;
    this.#makeParkRoom(call.session.principal);
    // A call an upstream asked without a link blocks that upstream's requests for every other
    // session while it waits (they cannot be attributed, and are never guessed): it waits less.
    const waitMs = call.asksUnlinked ? this.#unlinkedParkMs : this.#inputTimeoutMs;
    const timer = setTimeout(() => {
      this.#parked.delete(call.id);
      call.cancel('the client did not answer the input request in time');
      this.endCall(call);
    }, waitMs);
    timer.unref();
    this.#parked.set(call.id, { call, timer });
  }

  /**
   * Subscribes `session` to `target` (see {@link UpstreamSubscriptions}), which it named
   * `named` (the server's URI or its qualified form): updates reach it under that name.
   * `active`, or `pending` while its server is away; rejects when the upstream refuses.
   */
  subscribe(session: DownstreamSession, named: string, target: ResourceTarget): Promise<SubscriptionState> {
    const key = wrapResourceUri(target.server, target.uri);
    const names = session.subscribedAs;
    if (named === key) names.delete(key);
    else names.set(key, named);
    return this.#subscriptions.subscribe(session, key);
  }

  /** The name each of `session`'s subscriptions was asked by (its qualified key when asked so). */
  subscriptionNames(session: DownstreamSession): string[] {
    return [...session.subscriptions].map((key) => session.subscribedAs.get(key) ?? key);
  }

  /**
   * Ends `session`'s subscription named `named` (as subscribed, or its qualified key); the last
   * one out unsubscribes upstream. Resolves `false` when the session holds no such subscription.
   */
  async unsubscribe(session: DownstreamSession, named: string): Promise<boolean> {
    let key: string | undefined = session.subscriptions.has(named) ? named : undefined;
    if (key === undefined) for (const [held, name] of session.subscribedAs) if (name === named) key = held;
    if (key === undefined) return false;
    session.subscribedAs.delete(key);
    await this.#subscriptions.unsubscribe(session, key);
    return true;
  }

  /** `server` reconnected: its upstream subscriptions died with the old connection; renews each one still held. */
  resubscribe(server: string): void {
    this.#subscriptions.resubscribe(server);
  }

  /**
   * `notifications/resources/updated` for the subscription `key` (qualified) to its 2025-era
   * subscribers and the 2026 listeners, each under the URI it subscribed by.
   */
  #sendUpdated(server: string, key: string, subscribers: Iterable<DownstreamSession>): void {
    const listened = new Set<string>();
    for (const session of subscribers) {
      const uri = session.subscribedAs.get(key) ?? key;
      // A stdio connection (either era) is told through its server; a 2026 HTTP listener through its handler.
      void session.server?.sendResourceUpdated({ uri }).catch(() => {});
      if (session.era === '2026-07-28') listened.add(uri);
    }
    for (const [handler, profile] of this.era2026Handlers)
      if (profile.allowsServer(server)) for (const uri of listened) handler.notify.resourceUpdated(uri);
  }

  /** A session ended (DELETE, disconnect, stdio close): its calls are cancelled, its subscriptions dropped. */
  endSession(session: DownstreamSession): void {
    if (session.ended) return;
    session.ended = true;
    this.sessions.delete(session);
    for (const call of [...this.calls])
      if (call.session === session) {
        call.cancel('the downstream session ended');
        this.endCall(call);
      }
    for (const key of [...session.subscriptions]) void this.unsubscribe(session, key);
  }

  readonly #toolLists = new ToolListAnnouncer(
    () => this.profiles.values(),
    (profile, change) => this.#sendToolsChanged(profile, change),
    (line) => this.#log(line),
  );

  /**
   * Follows the upstreams' states: a server that needs OAuth sign-in, or no longer does, brings
   * or takes `mcp_auth` (full mode); one that (re)connected may bring other resources and
   * prompts, and has forgotten the subscriptions of its last connection. Returns the unsubscriber.
   */
  followUpstreamStates(hub: McpToolHub): () => void {
    const lastState = new Map(hub.status().map((status) => [status.name, status.state]));
    return hub.on('status', (status) => {
      const was = lastState.get(status.name);
      lastState.set(status.name, status.state);
      if (was !== status.state && (was === 'auth_required' || status.state === 'auth_required'))
        this.toolsChanged();
      if (status.state === 'connected' && was !== undefined && was !== 'connected') {
        this.resubscribe(status.name);
        this.resourcesChanged(status.name);
        this.promptsChanged(status.name);
      }
    });
  }

  /**
   * The served tools may have changed (`server`: that upstream's tools changed or it
   * reconnected): each profile's clients whose tool list did change hear `list_changed`.
   */
  toolsChanged(server?: string): void {
    this.#toolLists.changed(server);
  }

  /** Holds tool `list_changed` announcements until the returned release (then one check). */
  holdToolChanges(): () => void {
    return this.#toolLists.hold();
  }

  /** Resolves once every tool change reported so far has been announced. */
  toolChangesSettled(): Promise<void> {
    return this.#toolLists.settled();
  }

  #sendToolsChanged(profile: GatewayProfile, change: ToolListChange): void {
    for (const session of this.sessions)
      if (session.profile === profile && (session.owner ? change.owner : change.shared))
        void session.server?.sendToolListChanged().catch(() => {});
    // A 2026-07-28 listener's owner status is per request, not per stream: all of them hear it.
    for (const [handler, served] of this.era2026Handlers)
      if (served === profile) handler.notify.toolsChanged();
  }

  /** Tells the clients whose profile admits `server` that its resources changed. */
  resourcesChanged(server: string): void {
    this.resources.forget(server);
    for (const session of this.sessions)
      if (session.allowsServer?.(server) !== false)
        void session.server?.sendResourceListChanged().catch(() => {});
    for (const [handler, profile] of this.era2026Handlers)
      if (profile.allowsServer(server)) handler.notify.resourcesChanged();
  }

  /** Tells the clients whose profile admits `server` that its prompts changed. */
  promptsChanged(server: string): void {
    for (const session of this.sessions)
      if (session.allowsServer?.(server) !== false)
        void session.server?.sendPromptListChanged().catch(() => {});
    for (const [handler, profile] of this.era2026Handlers)
      if (profile.allowsServer(server)) handler.notify.promptsChanged();
  }

  /** Routes an upstream notification: logs to sessions that asked, updates to subscribers, list changes to all. */
  upstreamNotification(server: string, notification: UpstreamNotification): void {
    switch (notification.method) {
      case 'notifications/resources/list_changed':
        this.resourcesChanged(server);
        return;
      case 'notifications/prompts/list_changed':
        this.promptsChanged(server);
        return;
      case 'notifications/resources/updated': {
        const key = wrapResourceUri(server, notification.params.uri);
        this.#sendUpdated(server, key, this.#subscriptions.subscribers(key));
        return;
      }
      case 'notifications/message': {
        const { level, logger, data } = notification.params;
        routeUpstreamLog(
          server,
          {
            level: level as LoggingLevel,
            logger: logger === undefined ? server : `${server}/${logger}`,
            data,
          },
          this.sessions,
          this.calls,
        );
        return;
      }
    }
  }

  /** Cancels every call in flight and every parked call; new calls are refused from now on. */
  shutDown(): void {
    this.closing = true;
    this.#subscriptions.close();
    for (const { call, timer } of this.#parked.values()) {
      clearTimeout(timer);
      call.cancel('the gateway is shutting down');
    }
    this.#parked.clear();
    for (const call of this.calls) call.cancel('the gateway is shutting down');
    this.scriptTasks.close();
  }
}
