import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/client';
import type { CallContext } from '../tool/call-context.js';

/** The parameters of a `sampling/createMessage` request (deprecated in 2026-07-28, still common). */
export type SamplingRequest = CreateMessageRequest['params'];
/** The parameters of an `elicitation/create` request. */
export type ElicitationRequest = ElicitRequest['params'];

/** Who asks and how to stop: handed to every server→client request callback. */
export interface ServerRequestContext {
  /** The configured name of the server that asked. */
  server: string;
  /** Aborted when the server cancels the request or the connection closes. */
  signal: AbortSignal;
  /**
   * The call (its context) of the tool call, resource read or prompt get this request belongs
   * to, when the protocol links the two: a 2026-07-28 `input_required` round, or a 2025-era
   * request that arrived on the call's own HTTP response stream. Absent when there is no link.
   */
  caller?: CallContext;
  /** The calls in flight to this server right now, each with its context (a gateway's fallback). */
  callersInFlight: CallContext[];
}

/** Answers a server's sampling request with a completion from a model the host controls. */
export type SamplingHandler = (
  request: SamplingRequest,
  context: ServerRequestContext,
) => Promise<CreateMessageResult>;
/** Answers a server's elicitation (form) request with the user's decision. */
export type ElicitationHandler = (
  request: ElicitationRequest,
  context: ServerRequestContext,
) => Promise<ElicitResult>;

/** Answers a server's `roots/list` request (instead of a fixed list). */
export type RootsHandler = (context: ServerRequestContext) => Promise<ListRootsResult>;

/** A filesystem root offered to servers: a path or a `file://` URL, with an optional name. */
export type RootInput = string | { uri: string; name?: string };

/** What the hub offers servers that ask the client for something. */
export interface ServerRequestOptions {
  onSamplingRequest?: SamplingHandler;
  onElicitation?: ElicitationHandler;
  /** Roots (2025-era `roots/list`, or `input_required` in 2026-07-28). */
  roots?: { uri: string; name?: string }[];
  /** Answers `roots/list` per request; wins over `roots`. */
  onRootsRequest?: RootsHandler;
  /**
   * What to declare to servers, when it is not what the handlers here answer: a hub whose
   * requests a gateway may route later has every handler, and declares what it is set to.
   */
  declares?: { sampling: boolean; elicitation: boolean; roots: boolean };
}
