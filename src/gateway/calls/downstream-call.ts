import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type ClientCapabilities,
  type InputRequiredResult,
  inputRequired,
  type LoggingLevel,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
} from '@modelcontextprotocol/server';
import type { RequestStatePayload } from '../../cluster/request-state-seal.js';
import { canonicalJson } from '../../json/canonical-json.js';
import { declaresTasks, TASKS_EXTENSION } from '../../mcp/created-tasks.js';
import type {
  CallContext,
  Caller,
  InputRequest,
  InputRequiredRelay,
  UpstreamLogMessage,
  UpstreamRequestContext,
  UpstreamResume,
} from '../../tool/call-context.js';
import { callerOf, type DownstreamSession } from '../sessions/downstream-session.js';
import { sendToCall, sendToSession, type UpstreamLog } from './upstream-log.js';

/** A server→client request an upstream made during a call, in the form the gateway forwards it. */
export type ForwardedRequest = InputRequest;

/** The downstream requests that are calls: their upstream work may ask the client for input. */
export type CallMethod = 'tools/call' | 'resources/read' | 'prompts/get';

/** How a 2025-era session's call pushes a request to its client (the call's own request context). */
export type PushRequest = (request: ForwardedRequest, signal: AbortSignal) => Promise<unknown>;

const capabilityOf: Record<ForwardedRequest['method'], keyof ClientCapabilities> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Why the client of a call cannot be sent an input request of `method` (a capability it did not declare), if it cannot. */
function capabilityRefusal(
  method: string,
  declared: ClientCapabilities | undefined,
): ProtocolError | undefined {
  const capability = Object.hasOwn(capabilityOf, method)
    ? capabilityOf[method as ForwardedRequest['method']]
    : undefined;
  if (capability !== undefined && declared?.[capability] !== undefined) return undefined;
  if (capability === undefined)
    return new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `${method} is not an input request a client answers; refused`,
    );
  // MCP 2026-07-28: a request that needs a capability the client did not declare gets -32021.
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { [capability]: {} } },
    `the client of this call did not declare the "${capability}" capability; ${method} refused`,
  );
}

/** What a downstream call asks for: its tool or prompt name (or resource URI) and its arguments. */
export interface DownstreamRequest {
  name: string;
  arguments?: unknown;
}

/** A digest of a call's arguments (key order aside), sealed in a relayed round so that its retry must bring the same. */
export function argumentsDigest(args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('base64url')
    .slice(0, 22);
}

/** How a 2026-07-28 round ends: its `requestState` for a parked call or a relayed one, and the call's end. */
export interface RoundHooks {
  /** The call waits for the client's answers here: parks it; returns the round's `requestState`. */
  parked(): string;
  /** An upstream's `input_required` goes to the client: returns the round's `requestState`. */
  relayed(payload: Extract<RequestStatePayload, { kind: 'relay' }>): string;
  /** The call ended (a result, a failure, or a relayed round: nothing is held). */
  ended(): void;
}

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
 * client gets them as `input_required` rounds — the upstream call stays parked, named by the
 * round's sealed `requestState`, until the client retries with the answers — or, for a tool of
 * a 2026-07-28 upstream, gets the upstream's own `input_required` relayed (see
 * {@link InputRequiredRelay}), and nothing is parked.
 */
export class DownstreamCall implements InputRequiredRelay, UpstreamRequestContext {
  readonly id = randomUUID();
  readonly session: DownstreamSession;
  /** The downstream method this call serves (a 2026-07-28 retry must name the same). */
  readonly method: CallMethod;
  /** Who makes this call: as the token presented on its request shows them (the session's by default). */
  caller: Caller;
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
  /**
   * The first retry of a relayed round, asking for the same target with the same arguments:
   * rate limits and the audit log count the call once.
   */
  continuation = false;
  /** What this call asks for, sealed into a relayed round (a retry must ask for the same to continue it). */
  request: { target: string; digest: string } | undefined;
  #counter = 0;
  #rounds = 0;
  /** The upstream whose `input_required` this call hands to its client (see {@link relayFor}). */
  #relayServer: string | undefined;
  /** Set for a gateway `tools/call` of one MCP tool (see {@link passTasks}): the tasks extension may be told upstream. */
  #tasks = false;
  #resume: { server: string | undefined; name: string | undefined; resume: UpstreamResume } | undefined;
  #relayed: { server: string; name: string; result: InputRequiredResult } | undefined;
  #wake: (() => void) | undefined;
  #unlinked = false;
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
    this.caller = callerOf(session);
    this.#capabilities = capabilities;
    this.#push = push;
  }

  /**
   * The call's context, handed as an argument to the tool, the pipeline and the MCP layer: the
   * session's caller, this call's signal and continuation, and this call as what its upstream
   * requests need (log level, capabilities, the relay, server→client requests, logs).
   */
  context(): CallContext {
    return {
      toolCallId: this.id,
      caller: this.caller,
      signal: this.signal,
      ...(this.continuation ? { continuation: true } : {}),
      upstream: this,
    };
  }

  /** The downstream session's id (server→client requests without a link are attributed by it). */
  get sessionId(): string {
    return this.session.id;
  }

  /**
   * The log level to ask the upstream servers of this call for: the request's envelope level
   * (2026-07-28) or the session's `logging/setLevel` (2025 era).
   */
  get logLevel(): LoggingLevel | undefined {
    return this.session.era === '2026-07-28' ? this.envelopeLogLevel : this.session.logLevel;
  }

  /** This call, when it hands a 2026-07-28 upstream's `input_required` to its client (a 2026-07-28 call). */
  get relay(): InputRequiredRelay | undefined {
    return this.session.era === '2026-07-28' ? this : undefined;
  }

  /** Delivers a log message an upstream sent on this call's own stream, to this call's client only. */
  log(server: string, message: UpstreamLogMessage): void {
    const log = message as UpstreamLog;
    if (this.session.era === '2026-07-28') sendToCall(this, server, log);
    else sendToSession(this.session, server, log, this);
  }

  /**
   * The input requests this call's client declared it answers (`sampling`, `elicitation`,
   * `roots`) and the tasks extension, told to a 2026-07-28 upstream in the call's envelope.
   */
  get capabilities(): ClientCapabilities {
    const declared = this.#capabilities() ?? {};
    const kept: ClientCapabilities = {};
    for (const capability of Object.values(capabilityOf))
      if (declared[capability] !== undefined) Object.assign(kept, { [capability]: declared[capability] });
    // The tasks extension (SEP-2663, a 2026-07-28 extension), passed through for a 2026-07-28
    // client's direct tool call (see passTasks): the upstream may answer a CreateTaskResult.
    if (this.#tasks && declaresTasks(declared))
      Object.assign(kept, {
        extensions: { [TASKS_EXTENSION]: declared.extensions?.[TASKS_EXTENSION] },
      });
    return kept;
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
   * the client did not declare the capability, so the upstream never hangs on it. `linked`:
   * the protocol tied the request to this call; `false` when it was this call's only because
   * no other session had a call in flight to that upstream (see {@link asksUnlinked}).
   */
  ask(request: ForwardedRequest, signal: AbortSignal, linked = true): Promise<unknown> {
    const refusal = capabilityRefusal(request.method, this.#capabilities());
    if (refusal !== undefined) return Promise.reject(refusal);
    if (!linked) this.#unlinked = true;
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
   * An upstream asked this call for input without a link to it (a 2025-era stdio server):
   * while this call is parked, that upstream's requests for any other session's call are
   * refused, so it is parked for a short time only.
   */
  get asksUnlinked(): boolean {
    return this.#unlinked;
  }

  /** The parked rounds this call answered so far (a retry must continue the latest). */
  get rounds(): number {
    return this.#rounds;
  }

  /**
   * This 2026-07-28 call is one request to `server` (a call of one of its tools, a read of one
   * of its resources, a get of one of its prompts): the upstream's own `input_required` goes to
   * the client as it is (sealed into the gateway's `requestState`) instead of parking the call.
   */
  relayFor(server: string): void {
    if (this.session.era === '2026-07-28') this.#relayServer = server;
  }

  /**
   * This 2026-07-28 call is a `tools/call` of one upstream tool, served by the gateway itself
   * (not through the router's `call_tool`): when its client declared the tasks extension, the
   * upstream is told so and may answer a CreateTaskResult, which the gateway hands on.
   */
  passTasks(): void {
    if (this.session.era === '2026-07-28') this.#tasks = true;
  }

  /**
   * This call retries a relayed round: `server`'s `name` gets `resume` (its state, the answers).
   * `continuation`: the first retry of that round (the call was counted in its first round).
   */
  continueUpstream(server: string, name: string, resume: UpstreamResume, continuation = false): void {
    this.#resume = { server, name, resume };
    this.continuation = continuation;
  }

  /**
   * A 2026-07-28 call that brings answers without a `requestState` (its client kept none): they
   * go, as they are, to the one upstream request this call relays, which decides what they mean.
   */
  answerUpstream(inputResponses: Record<string, unknown>): void {
    this.#resume = { server: undefined, name: undefined, resume: { inputResponses } };
  }

  relays(server: string): boolean {
    return this.#relayServer === server && this.#relayed === undefined;
  }

  resumeUpstream(server: string, name: string): UpstreamResume | undefined {
    const resume = this.#resume;
    if (resume === undefined) return undefined;
    if (resume.server !== undefined && (resume.server !== server || resume.name !== name)) return undefined;
    this.#resume = undefined;
    return resume.resume;
  }

  pass(server: string, name: string, result: InputRequiredResult): void {
    const declared = this.#capabilities();
    for (const request of Object.values(result.inputRequests ?? {})) {
      const refusal = capabilityRefusal((request as { method?: string }).method ?? '', declared);
      if (refusal !== undefined) throw refusal;
    }
    this.#relayed = { server, name, result };
    this.#wake?.();
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
   * One 2026-07-28 round: resolves with the call's result, with an upstream's own
   * `input_required` (relayed: `hooks.relayed` seals its state; the call ends, nothing is held),
   * or with `input_required` carrying every upstream request not yet sent (`hooks.parked`
   * parks the call and seals its state). `signal` is the round's own request: when it aborts
   * (a downstream cancellation), the call is cancelled. `hooks.ended` runs when the call ends.
   */
  async round(signal: AbortSignal, hooks: RoundHooks): Promise<Result | InputRequiredResult> {
    const onAbort = () => this.cancel('the client cancelled the call');
    signal.addEventListener('abort', onAbort, { once: true });
    let parked = false;
    try {
      for (;;) {
        const relayed = this.#relayed;
        if (relayed !== undefined) {
          const { server, name, result } = relayed;
          const state = result.requestState;
          return inputRequired({
            inputRequests: result.inputRequests,
            requestState: hooks.relayed({
              kind: 'relay',
              server,
              name,
              ...(state === undefined ? {} : { state }),
              round: randomBytes(12).toString('base64url'),
              ...(this.request === undefined
                ? {}
                : { target: this.request.target, digest: this.request.digest }),
            }),
          } as Parameters<typeof inputRequired>[0]);
        }
        const unsent =
          this.#outstanding.size === 0 ? [] : [...this.#outstanding].filter(([, entry]) => !entry.sent);
        if (unsent.length > 0) {
          for (const [, entry] of unsent) entry.sent = true;
          parked = true;
          this.#rounds++;
          return inputRequired({
            inputRequests: Object.fromEntries(unsent.map(([key, entry]) => [key, entry.request])),
            requestState: hooks.parked(),
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
      if (!parked) hooks.ended();
    }
  }
}
