// Types only from the SDK: `import 'mcptools'` loads no SDK, and these are erased.
import type { ClientCapabilities, InputRequiredResult } from '@modelcontextprotocol/client';
import type { ApprovalHandler } from './approval.js';
import type { ToolUpdateCallback } from './tool-result.js';

/**
 * Who calls: what the code that received the request (the gateway's front door, the CLI)
 * learned about the caller. Every decision that depends on the caller (rate limits, the audit
 * log, allow-always, visibility, which upstream connection serves the call) reads this one type.
 */
export interface Caller {
  /**
   * A stable id, never the token: `oauth:<sub>` (`client:<client id>` for a token without a
   * subject), a named static token's principal (`token:<name>` by default), an id derived from
   * the `token`/`ownerToken` pair's token, `stdio` for the client that started the process, or `anonymous`.
   */
  principal: string;
  /** `true` when the caller presented the owner token (or came over stdio). */
  owner: boolean;
  /** How it authenticated (`stdio`: the client that started the process, trusted as the owner). */
  via?: 'anonymous' | 'token' | 'oauth' | 'stdio';
  /** The OAuth token's subject and client (`client_id` or `azp`). */
  subject?: string;
  clientId?: string;
  /**
   * The SHA-256 (base64url) of the OAuth access token this request came with, never the token:
   * a token exchange is keyed by it (each token is exchanged for itself).
   */
  tokenDigest?: string;
  /** Granted scopes (OAuth), or those a static token is configured with. */
  scopes?: readonly string[];
  /** The token's claims (OAuth), or those a static token is configured with. */
  claims?: Readonly<Record<string, unknown>>;
  /** The only profile a named static token may use. */
  profile?: string;
}

/** An upstream's own state and the client's answers, for the retry that continues its call. */
export interface UpstreamResume {
  /** The upstream's `requestState`, echoed byte for byte (absent when it sent none). */
  requestState?: string;
  /** The client's answers, keyed as the upstream keyed its `inputRequests`. */
  inputResponses: Record<string, unknown>;
}

/**
 * What a caller offers when it can hand a 2026-07-28 upstream's `input_required` on to its own
 * client instead of answering it here: a gateway's 2026-07-28 downstream call. The MCP tool
 * adapter then calls with `allowInputRequired`, passes the result to {@link pass}, and on the
 * retry sends the {@link resumeUpstream} back upstream, so the call holds nothing between rounds.
 */
export interface InputRequiredRelay {
  /**
   * Told by whoever runs exactly one request to `server` for this caller (the gateway for a
   * tool, read or prompt get of one server; the router's `call_tool` for its target): that
   * request's `input_required` may go to the client as it is.
   */
  relayFor(server: string): void;
  /** Whether this caller relays the `input_required` of a call of `server` (checked before calling). */
  relays(server: string): boolean;
  /** The resume for a call of `server`'s `name`, when this call retries one of its rounds (once). */
  resumeUpstream(server: string, name: string): UpstreamResume | undefined;
  /**
   * Takes `server`'s `input_required` for its `name` to hand to the client; throws (and the
   * call fails) when the client cannot answer it (a capability it did not declare).
   */
  pass(server: string, name: string, result: InputRequiredResult): void;
}

/** A server→client request (elicitation, sampling, roots) as the caller's own client is asked it. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

/** An upstream log message, its logger already prefixed with the server name. */
export interface UpstreamLogMessage {
  level: string;
  logger: string;
  data: unknown;
}

/**
 * What a request to an upstream server needs from the call it serves: the log level and client
 * capabilities to tell a 2026-07-28 server, the relay of its `input_required`, and who answers
 * its server→client requests and hears its logs. A gateway's downstream call provides it;
 * an agent loop has none.
 */
export interface UpstreamRequestContext {
  /** The log level the caller's client asked for (`undefined`: no logs). */
  readonly logLevel: string | undefined;
  /** The input requests (and extensions) the caller's own client declared it answers. */
  readonly capabilities: ClientCapabilities | undefined;
  /** Set when the caller hands a 2026-07-28 upstream's `input_required` to its own client. */
  readonly relay?: InputRequiredRelay;
  /**
   * The downstream session the call belongs to: a server→client request the protocol does not
   * link to one call is attributed only when the calls in flight to that server share one.
   */
  readonly sessionId: string;
  /**
   * Forwards an upstream's server→client request to the caller's own client. `linked` is false
   * when the upstream's transport did not say which call asked (the call is then parked only briefly).
   */
  ask(request: InputRequest, signal: AbortSignal, linked?: boolean): Promise<unknown>;
  /** Delivers a log message the upstream sent on this call's own stream. */
  log(server: string, message: UpstreamLogMessage): void;
}

/**
 * Everything one call carries, passed as an argument from whoever received it (the gateway,
 * the CLI, an agent loop) through the pipeline and the registry to the tool, the MCP adapter
 * and the resource and prompt services. Nothing about the call is read from ambient state.
 */
export interface CallContext {
  /** The id of the call (OpenClaw's `toolCallId`); empty when the caller gave none. */
  toolCallId: string;
  /** Who calls; absent for an in-process caller (an agent loop, the library), which acts as the operator. */
  caller?: Caller;
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Progressive updates (OpenClaw `onUpdate`, MCP progress). */
  onUpdate?: ToolUpdateCallback;
  /** Decides approvals asked during the call (wins over the registry's `onApproval`). */
  onApproval?: ApprovalHandler;
  /**
   * The call continues an upstream's `input_required` round of the same server, tool and
   * arguments already counted (the gateway sets it on the first retry of a relayed round):
   * rate limits take no token, and its audit record says `continuation: true`.
   */
  continuation?: boolean;
  /** What requests to upstream servers made for this call need (a gateway's downstream call). */
  upstream?: UpstreamRequestContext;
  /**
   * Counts a code-mode script of this call, about to wait for the caller's answer (an
   * approval), by the `bytes` its sandbox holds, against the caller's quota of parked scripts
   * (a gateway's): the release when it stops waiting, or `undefined` when the quota is full
   * and the question must not be asked. Absent: nothing is counted.
   */
  parkScript?: (bytes: number) => (() => void) | undefined;
}

/**
 * The context of a call made through OpenClaw's `execute(toolCallId, params, signal, onUpdate)`
 * without one: no caller (the in-process operator), nothing relayed.
 */
export function defaultCallContext(
  toolCallId: string,
  signal?: AbortSignal,
  onUpdate?: ToolUpdateCallback,
): CallContext {
  const context: CallContext = { toolCallId };
  if (signal !== undefined) context.signal = signal;
  if (onUpdate !== undefined) context.onUpdate = onUpdate;
  return context;
}

/**
 * The context `execute` was given, or the default one built from its OpenClaw arguments (the
 * thin adapter every context-aware tool starts with).
 */
export function contextOf(
  toolCallId: string,
  signal: AbortSignal | undefined,
  onUpdate: ToolUpdateCallback | undefined,
  context: CallContext | undefined,
): CallContext {
  return context ?? defaultCallContext(toolCallId, signal, onUpdate);
}
