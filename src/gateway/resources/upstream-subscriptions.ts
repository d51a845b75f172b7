import { McpToolsError } from '../../errors/mcp-tools-error.js';
import type { McpToolHub } from '../../mcp/hub-types.js';
import type { CallContext } from '../../tool/call-context.js';
import type { DownstreamSession } from '../sessions/downstream-session.js';
import { sessionContext } from '../sessions/downstream-session.js';
import { unwrapResourceUri } from './resource-uri.js';

/**
 * How a subscription stands upstream: `active` (the upstream holds it) or `pending` (the
 * upstream is away or failed for a passing reason; it is subscribed when it returns).
 */
export type SubscriptionState = 'active' | 'pending';

/** What the gateway tells the subscribers of a wrapped URI. */
export interface SubscriptionEvents {
  /** Subscribed upstream again after a reconnect or a retry: updates may have been missed. */
  restored(wrapped: string, server: string, subscribers: ReadonlySet<DownstreamSession>): void;
  /** The upstream refused to subscribe it again (or kept failing): it is dropped. */
  lost(wrapped: string, server: string, subscribers: ReadonlySet<DownstreamSession>, reason: string): void;
}

interface Held {
  readonly wrapped: string;
  readonly server: string;
  readonly uri: string;
  readonly subscribers: Set<DownstreamSession>;
  state: SubscriptionState | 'subscribing';
  /** Bumped by every attempt (and by the end): an answer to an older attempt is ignored. */
  attempt: number;
  retries: number;
  timer?: NodeJS.Timeout;
}

/** Waits before each retry of a subscription that failed for a passing reason while its server stayed up. */
export const SUBSCRIBE_RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000, 8000];

const PASSING: ReadonlySet<string> = new Set(['CONNECTION_FAILED', 'TIMEOUT', 'SERVER_DISCONNECTED']);

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The upstream resource subscriptions every downstream client holds, one per wrapped URI
 * however many sessions and listeners ask (reference-counted: the first subscribes upstream,
 * the last one out unsubscribes). A subscription survives its upstream: when the server is
 * away (or fails for a passing reason) it is held `pending` and subscribed when the server
 * returns (or retried with backoff while it is up); after every reconnect each held URI is
 * subscribed again, and its subscribers are told to read it again (`restored`). An upstream
 * that refuses — at once, or when subscribed again — is reported: the first subscriber gets
 * the error, later ones `lost`.
 */
export class UpstreamSubscriptions {
  readonly #hub: McpToolHub;
  readonly #events: SubscriptionEvents;
  readonly #log: (line: string) => void;
  readonly #delays: readonly number[];
  readonly #held = new Map<string, Held>();
  /** The first attempt of each new subscription, which its first subscribers wait for. */
  readonly #first = new Map<Held, Promise<SubscriptionState>>();

  constructor(
    hub: McpToolHub,
    events: SubscriptionEvents,
    log: (line: string) => void,
    retryDelaysMs: readonly number[] = SUBSCRIBE_RETRY_DELAYS_MS,
  ) {
    this.#hub = hub;
    this.#events = events;
    this.#log = log;
    this.#delays = retryDelaysMs;
  }

  /** The sessions subscribed to `wrapped`. */
  subscribers(wrapped: string): ReadonlySet<DownstreamSession> {
    return this.#held.get(wrapped)?.subscribers ?? new Set();
  }

  /**
   * Subscribes `session` to a wrapped resource URI. Resolves `active` or `pending` (held until
   * the server returns); rejects when the upstream refuses (the session holds nothing then).
   */
  async subscribe(session: DownstreamSession, wrapped: string): Promise<SubscriptionState> {
    const origin = unwrapResourceUri(wrapped);
    if (origin === undefined)
      throw new McpToolsError('INVALID_URI', `not a gateway resource URI: ${wrapped}`, {
        data: { uri: wrapped },
      });
    let held = this.#held.get(wrapped);
    if (held === undefined) {
      held = {
        wrapped,
        server: origin.server,
        uri: origin.uri,
        subscribers: new Set(),
        state: 'subscribing',
        attempt: 0,
        retries: 0,
      };
      this.#held.set(wrapped, held);
      // The first attempt is the subscriber's own request: routed (or refused) for its caller.
      const first = this.#attempt(held, true, sessionContext(session));
      this.#first.set(held, first);
      void first.finally(() => this.#first.delete(held!)).catch(() => {});
    }
    held.subscribers.add(session);
    session.subscriptions.add(wrapped);
    const first = this.#first.get(held);
    if (first === undefined) return held.state === 'active' ? 'active' : 'pending';
    try {
      return await first;
    } catch (error) {
      held.subscribers.delete(session);
      session.subscriptions.delete(wrapped);
      throw error;
    }
  }

  /** Ends `session`'s subscription; the last one out unsubscribes upstream. */
  async unsubscribe(session: DownstreamSession, wrapped: string): Promise<void> {
    session.subscriptions.delete(wrapped);
    const held = this.#held.get(wrapped);
    if (held === undefined || !held.subscribers.delete(session) || held.subscribers.size > 0) return;
    this.#end(held);
    if (held.state === 'active')
      await this.#hub.resources.unsubscribe?.(held.server, held.uri).catch(() => {});
  }

  /** `server` (re)connected: its upstream subscriptions died with the old connection; renews each one held. */
  resubscribe(server: string): void {
    for (const held of this.#held.values()) {
      if (held.server !== server) continue;
      clearTimeout(held.timer);
      held.retries = 0;
      void this.#attempt(held, false).catch(() => {});
    }
  }

  /** Stops every retry (the gateway is closing). */
  close(): void {
    for (const held of this.#held.values()) clearTimeout(held.timer);
  }

  #end(held: Held): void {
    clearTimeout(held.timer);
    held.attempt++;
    if (this.#held.get(held.wrapped) === held) this.#held.delete(held.wrapped);
  }

  /** Whether `error` from subscribing on `server` will pass: the server is away, or the failure was transient. */
  #passing(server: string, error: unknown): boolean {
    const state = this.#hub.status(server)?.state;
    if (state === undefined || state === 'disabled' || state === 'skipped') return false;
    if (state !== 'connected') return true;
    return (
      McpToolsError.isInstance(error) &&
      (PASSING.has(error.code) || (error.code === 'UPSTREAM_ERROR' && error.recoverable))
    );
  }

  /** Subscribes upstream once; the first attempt of a new subscription throws a refusal, later ones report it. */
  async #attempt(held: Held, first: boolean, context?: CallContext): Promise<SubscriptionState> {
    const attempt = ++held.attempt;
    const live = () => held.attempt === attempt && this.#held.get(held.wrapped) === held;
    try {
      if (this.#hub.resources.subscribe === undefined)
        throw new McpToolsError('UPSTREAM_ERROR', 'the hub cannot subscribe to resources', {
          recoverable: false,
        });
      await this.#hub.resources.subscribe(held.server, held.uri, context === undefined ? {} : { context });
    } catch (error) {
      if (!live()) return 'pending';
      if (!this.#passing(held.server, error)) {
        if (!first) {
          this.#lose(held, message(error));
          return 'pending';
        }
        this.#end(held);
        throw error;
      }
      const wasUp = this.#hub.status(held.server)?.state === 'connected';
      held.state = 'pending';
      // A server that is away gets everything renewed when it returns; one that is up, retries.
      if (wasUp) this.#retryLater(held, error);
      return 'pending';
    }
    if (!live()) {
      // Ended while it was being subscribed: nobody holds it now, unless a new subscription does.
      if (!this.#held.has(held.wrapped))
        await this.#hub.resources.unsubscribe?.(held.server, held.uri).catch(() => {});
      return 'active';
    }
    held.state = 'active';
    held.retries = 0;
    if (!first) this.#events.restored(held.wrapped, held.server, held.subscribers);
    return 'active';
  }

  /** Drops `held` and tells its subscribers, who hold it no more. */
  #lose(held: Held, reason: string): void {
    this.#end(held);
    for (const session of held.subscribers) session.subscriptions.delete(held.wrapped);
    this.#log(`subscription ${held.wrapped} lost: ${reason}`);
    this.#events.lost(held.wrapped, held.server, held.subscribers, reason);
  }

  #retryLater(held: Held, error: unknown): void {
    const delay = this.#delays[held.retries];
    if (delay === undefined) {
      this.#lose(held, `gave up after ${held.retries + 1} attempts: ${message(error)}`);
      return;
    }
    held.retries++;
    held.timer = setTimeout(() => void this.#attempt(held, false).catch(() => {}), delay);
    held.timer.unref();
  }
}
