import { randomUUID } from 'node:crypto';
import {
  type ClientCapabilities,
  type InputRequiredResult,
  inputRequired,
  type LoggingLevel,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
} from '@modelcontextprotocol/server';
import type { DownstreamSession } from './downstream-session.js';

/** A server→client request an upstream made during a call, in the form the gateway forwards it. */
export type ForwardedRequest =
  | { method: 'elicitation/create'; params: Record<string, unknown> }
  | { method: 'sampling/createMessage'; params: Record<string, unknown> }
  | { method: 'roots/list'; params?: Record<string, unknown> };

/** The downstream requests that are calls: their upstream work may ask the client for input. */
export type CallMethod = 'tools/call' | 'resources/read' | 'prompts/get';

/** How a 2025-era session's call pushes a request to its client (the call's own request context). */
export type PushRequest = (request: ForwardedRequest, signal: AbortSignal) => Promise<unknown>;

const capabilityOf: Record<ForwardedRequest['method'], keyof ClientCapabilities> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

interface Outstanding {
  request: ForwardedRequest;
  sent: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * One downstream `tools/call`, `resources/read` or `prompts/get` in flight (the three methods
 * whose 2026-07-28 results may be `input_required`), and the owner of every upstream request it
 * makes (`runAsCaller`). It answers the upstream's server→client requests for exactly this call:
 * a 2025-era session gets them pushed on the call's own request (`push`); a 2026-07-28
 * client gets them as `input_required` rounds — the upstream call stays parked, keyed by the
 * round's `requestState`, until the client retries with the answers.
 */
export class DownstreamCall {
  readonly id = randomUUID();
  readonly session: DownstreamSession;
  /** The downstream method this call serves (a 2026-07-28 retry must name the same). */
  readonly method: CallMethod;
  readonly #abort = new AbortController();
  readonly #capabilities: () => ClientCapabilities | undefined;
  #push: PushRequest | undefined;
  readonly #outstanding = new Map<string, Outstanding>();
  /**
   * Sends a log message on the request serving this call right now: a 2026-07-28 one (the SDK
   * drops it unless that request's envelope asked for logs at that level; unset between
   * rounds), or a 2025-era one (the session's `logging/setLevel` is checked before).
   */
  logTo: ((level: LoggingLevel, data: unknown, logger: string) => Promise<void>) | undefined;
  /** The log level the 2026-07-28 request of this call asked for in its envelope, if any. */
  envelopeLogLevel: LoggingLevel | undefined;
  #counter = 0;
  #wake: (() => void) | undefined;
  #started = false;
  #settled: { value: Result } | { error: unknown } | undefined;

  constructor(
    session: DownstreamSession,
    method: CallMethod,
    capabilities: () => ClientCapabilities | undefined,
    push?: PushRequest,
  ) {
    this.session = session;
    this.method = method;
    this.#capabilities = capabilities;
    this.#push = push;
  }

  /**
   * The log level to ask the upstream servers of this call for (read by the MCP tool adapter
   * through `callerLogLevel`): the request's envelope level (2026-07-28) or the session's
   * `logging/setLevel` (2025 era).
   */
  get upstreamLogLevel(): LoggingLevel | undefined {
    return this.session.era === 'modern' ? this.envelopeLogLevel : this.session.logLevel;
  }

  /** Aborted when the downstream cancels, the session ends or the gateway closes. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Cancels the call (and so its upstream call). */
  cancel(reason: string): void {
    if (!this.#abort.signal.aborted) this.#abort.abort(new Error(reason));
    for (const entry of this.#outstanding.values()) entry.reject(new Error(reason));
    this.#outstanding.clear();
    this.#wake?.();
  }

  /**
   * Forwards an upstream's server→client request to this call's client. Refused at once when
   * the client did not declare the capability, so the upstream never hangs on it.
   */
  ask(request: ForwardedRequest, signal: AbortSignal): Promise<unknown> {
    const capability = capabilityOf[request.method];
    if (this.#capabilities()?.[capability] === undefined) {
      return Promise.reject(
        new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `the client of this call did not declare the "${capability}" capability; ${request.method} refused`,
        ),
      );
    }
    if (this.#abort.signal.aborted) return Promise.reject(this.#abort.signal.reason);
    const combined = AbortSignal.any([signal, this.#abort.signal]);
    if (this.#push) return this.#push(request, combined);
    return new Promise((resolve, reject) => {
      const key = `r${++this.#counter}`;
      const entry: Outstanding = { request, sent: false, resolve, reject };
      this.#outstanding.set(key, entry);
      combined.addEventListener(
        'abort',
        () => {
          if (this.#outstanding.delete(key)) reject(combined.reason);
        },
        { once: true },
      );
      this.#wake?.();
    });
  }

  /**
   * Starts the upstream work (once); its result ends the last round. One reaction, which never
   * rejects: the outcome is kept for the round, so nothing is left to catch.
   */
  start(run: () => Promise<Result>): void {
    if (this.#started) return;
    this.#started = true;
    run().then(
      (value) => {
        this.#settled = { value };
        this.#wake?.();
      },
      (error: unknown) => {
        this.#settled = { error };
        this.#wake?.();
      },
    );
  }

  /** A 2026-07-28 retry: hands the client's answers to the upstream requests waiting for them. */
  resume(responses: Record<string, unknown>): void {
    for (const [key, entry] of this.#outstanding) {
      if (!entry.sent) continue;
      if (key in responses) {
        this.#outstanding.delete(key);
        entry.resolve(responses[key]);
      } else {
        // Not answered: ask again in the next round.
        entry.sent = false;
      }
    }
  }

  /**
   * One 2026-07-28 round: resolves with the call's result, or with `input_required` carrying
   * every upstream request not yet sent (and this call's id as `requestState`). `signal` is the
   * round's own request: when it aborts (a downstream cancellation), the call is cancelled.
   * `onParked` runs when the round answers `input_required` (the call waits for a retry);
   * `onEnded` when it ends the call (a result or a failure).
   */
  async round(
    signal: AbortSignal,
    onParked: () => void,
    onEnded: () => void,
  ): Promise<Result | InputRequiredResult> {
    const onAbort = () => this.cancel('the client cancelled the call');
    signal.addEventListener('abort', onAbort, { once: true });
    let parked = false;
    try {
      for (;;) {
        const unsent =
          this.#outstanding.size === 0 ? [] : [...this.#outstanding].filter(([, entry]) => !entry.sent);
        if (unsent.length > 0) {
          for (const [, entry] of unsent) entry.sent = true;
          parked = true;
          onParked();
          return inputRequired({
            inputRequests: Object.fromEntries(unsent.map(([key, entry]) => [key, entry.request])),
            requestState: this.id,
          } as Parameters<typeof inputRequired>[0]);
        }
        if (this.#settled !== undefined) {
          if ('value' in this.#settled) return this.#settled.value;
          throw this.#settled.error;
        }
        if (this.#abort.signal.aborted) throw this.#abort.signal.reason;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        this.#wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!parked) onEnded();
    }
  }
}
