import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type Client,
  type ClientCapabilities,
  type JSONRPCMessage,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Transport,
} from '@modelcontextprotocol/client';
import { chainCapabilities } from '../chain/gateway-chain.js';
import { traceContextMeta } from '../telemetry/trace-context.js';
import type { CallContext } from '../tool/call-context.js';
import { currentCaller, runAsCaller } from './caller-scope.js';
import { clientEra } from './sdk-era.js';
import type { RootInput, ServerRequestContext, ServerRequestOptions } from './server-request-handlers.js';

export type {
  ElicitationHandler,
  ElicitationRequest,
  RootInput,
  RootsHandler,
  SamplingHandler,
  SamplingRequest,
  ServerRequestContext,
  ServerRequestOptions,
} from './server-request-handlers.js';

/*
 * Whoever sends a request for a call records the call on the connection while it runs
 * (`CallsInFlight.track`), and a server→client request is handed the call whose async context
 * it arrived in (see caller-scope.ts). The SDK runs a 2026-07-28 `input_required` round and
 * reads a 2025-era HTTP call's response stream inside that call's async context, so the link
 * holds exactly where the protocol carries one; a 2025-era stdio server's requests arrive from
 * the pipe, whose context belongs to no call (responses are re-linked to their sender by
 * `linkResponsesToCallers`, requests cannot be) — and a stale call (one that already ended) is
 * never reported, because only calls in flight count.
 */

/** The calls in flight on one connection, each with its context: whom a server→client request is attributed to. */
export class CallsInFlight {
  /**
   * Whether the connection's transport gives each request a response stream of its own (HTTP),
   * whose messages the SDK handles in that request's async context; a stdio pipe carries every
   * request's at once, in no call's context.
   */
  perRequestStreams = false;
  /** Each call's context and how many of its requests are in flight (made by the first call). */
  #calls: Map<CallContext, number> | undefined;

  /** Records the call `context` as in flight; returns the release function (call it once its request settled). */
  track(context: CallContext): () => void {
    this.#calls ??= new Map();
    const calls = this.#calls;
    calls.set(context, (calls.get(context) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const count = (calls.get(context) ?? 1) - 1;
      if (count <= 0) calls.delete(context);
      else calls.set(context, count);
    };
  }

  /** Whether a gateway's call is in flight on the connection now (a program's own calls are not tracked). */
  get inFlight(): boolean {
    return this.#calls !== undefined && this.#calls.size > 0;
  }

  /** What a server→client request of `server` is handed: the call it belongs to (when in flight) and every call in flight. */
  requestContext(server: string, signal: AbortSignal): ServerRequestContext {
    const calls = this.#calls;
    const callersInFlight = calls ? [...calls.keys()] : [];
    const store = currentCaller();
    const caller = store !== undefined && calls?.has(store) ? store : undefined;
    return caller === undefined
      ? { server, signal, callersInFlight }
      : { server, signal, caller, callersInFlight };
  }
}

/**
 * The `_meta` to put in a request to `client` for the call `context`: the current span
 * (`traceparent`, when tracing) and, for a 2026-07-28 server, the log level the caller's
 * client asked for and (when `capabilities`) the input requests that client can answer, so
 * that the server asks nothing that would be refused and refuses (`-32021`) what it cannot do
 * without them; the gateway chain as always. `undefined` when there is nothing to say.
 */
export function callerMeta(
  client: Client,
  context: CallContext | undefined,
  capabilities = true,
): Record<string, unknown> | undefined {
  const traced = traceContextMeta();
  const upstream = context?.upstream;
  if (upstream === undefined || clientEra(client) !== '2026-07-28') return traced;
  const meta: Record<string, unknown> = { ...traced };
  if (upstream.logLevel !== undefined) meta[LOG_LEVEL_META_KEY] = upstream.logLevel;
  const declared = capabilities ? upstream.capabilities : undefined;
  if (declared !== undefined) {
    const chain = chainCapabilities();
    meta[CLIENT_CAPABILITIES_META_KEY] = chain ? { ...declared, experimental: chain } : declared;
  }
  return meta;
}

const MAX_LINKED = 10_000;

/**
 * Delivers each response to the caller that sent its request: the SDK handles a response —
 * including a 2026-07-28 `input_required` result, whose rounds then call the request handlers
 * — in the async context of the transport's read, which over stdio belongs to no call. Call
 * it once per transport, before or after `client.connect(transport)`: the first request a
 * caller sends wraps whatever `onmessage` the client installed (and a later client's, after a
 * reconnect on the same transport), so a hub used without callers keeps only the `send` hook.
 * A transport class of mcptools' own calls {@link linkToCaller} from its `send` instead.
 */
export function linkResponsesToCallers(transport: Transport): void {
  const send = transport.send;
  let links: ResponseLinks | undefined;
  // Plain assignments, never `defineProperty`: an accessor on the instance would turn the
  // transport into a dictionary-mode object.
  transport.send = (message, options) => {
    links = linkToCaller(transport, links, message);
    return send.call(transport, message, options);
  };
}

/**
 * What a transport's `send` calls before sending `message`: a request sent by a caller (see
 * {@link runAsCaller}) is recorded so that its response reaches that caller's async context.
 * `links` is the transport's {@link ResponseLinks}, made here by the first such request (kept by
 * the transport: most never have one); returns it.
 */
export function linkToCaller(
  transport: Transport,
  links: ResponseLinks | undefined,
  message: JSONRPCMessage,
): ResponseLinks | undefined {
  const caller = currentCaller();
  if (caller?.upstream === undefined || !('method' in message && 'id' in message)) return links;
  links ??= new ResponseLinks(transport);
  links.sent(message.id, caller);
  return links;
}

/** The requests callers sent on one transport, and the `onmessage` wrapper that answers them in their context. */
export class ResponseLinks {
  readonly #transport: Transport;
  readonly #sentBy = new Map<string | number, CallContext>();
  #receive: Transport['onmessage'];
  readonly #linked: NonNullable<Transport['onmessage']>;

  constructor(transport: Transport) {
    this.#transport = transport;
    this.#linked = (response, extra) => {
      if (!('method' in response) && 'id' in response && response.id !== undefined) {
        const sender = this.#sentBy.get(response.id);
        if (sender !== undefined) {
          this.#sentBy.delete(response.id);
          return runAsCaller(sender, () => this.#receive?.(response, extra));
        }
      }
      return this.#receive?.(response, extra);
    };
  }

  /** Records the request `id` as sent by `caller`, and wraps the `onmessage` the client installed. */
  sent(id: string | number, caller: CallContext): void {
    const transport = this.#transport;
    if (transport.onmessage !== this.#linked) {
      this.#receive = transport.onmessage;
      transport.onmessage = this.#linked;
    }
    if (this.#sentBy.size >= MAX_LINKED) this.#sentBy.clear();
    this.#sentBy.set(id, caller);
  }
}

/** Roots from `workspaceDir` and explicit `roots`, as `file://` URLs. */
export function resolveRoots(
  workspaceDir: string | undefined,
  roots: RootInput[] | undefined,
): { uri: string; name?: string }[] | undefined {
  const resolved: { uri: string; name?: string }[] = [];
  const add = (input: RootInput) => {
    const root = typeof input === 'string' ? { uri: input } : input;
    const uri = root.uri.startsWith('file://') ? root.uri : pathToFileURL(resolve(root.uri)).href;
    const name = root.name ?? (basename(new URL(uri).pathname) || undefined);
    resolved.push(name === undefined ? { uri } : { uri, name });
  };
  if (workspaceDir !== undefined) add(workspaceDir);
  for (const root of roots ?? []) add(root);
  return resolved.length > 0 ? resolved : undefined;
}

/** The capabilities of each options object: one object for every client (the SDK copies it). */
const declared = new WeakMap<ServerRequestOptions, ClientCapabilities>();

/**
 * The client capabilities to declare: `options.declares`, else what is configured (a server
 * never asks for the rest).
 */
export function clientCapabilities(options: ServerRequestOptions): ClientCapabilities {
  let capabilities = declared.get(options);
  if (capabilities !== undefined) return capabilities;
  capabilities = {};
  declared.set(options, capabilities);
  const declares = options.declares ?? {
    sampling: options.onSamplingRequest !== undefined,
    elicitation: options.onElicitation !== undefined,
    roots: options.roots !== undefined || options.onRootsRequest !== undefined,
  };
  if (declares.sampling) capabilities.sampling = {};
  // applyDefaults: the SDK fills in schema defaults the host left out of an accepted form (SEP-1034).
  if (declares.elicitation) capabilities.elicitation = { form: { applyDefaults: true } };
  if (declares.roots) capabilities.roots = { listChanged: false };
  // The gateway chain rides in `initialize` too: a bridge that drops our header forwards it.
  const chain = chainCapabilities();
  if (chain) capabilities.experimental = chain;
  return capabilities;
}

const notEnabled: Record<string, string> = {
  'sampling/createMessage': 'sampling is not enabled in mcptools; pass onSamplingRequest to loadMcpServers',
  'elicitation/create': 'elicitation is not enabled in mcptools; pass onElicitation to loadMcpServers',
  'roots/list': 'roots are not enabled in mcptools; pass workspaceDir or roots to loadMcpServers',
};

/**
 * Registers the configured handlers on `client` (attributing each request to a call of
 * `calls`, the connection's calls in flight) and a fallback that answers anything else
 * with a JSON-RPC error saying what to configure. The same handlers serve 2025-era
 * server→client requests and 2026-era `input_required` rounds (the SDK routes both).
 */
export function installServerRequestHandlers(
  client: Client,
  server: string,
  options: ServerRequestOptions,
  calls: CallsInFlight,
): void {
  const { onSamplingRequest, onElicitation, onRootsRequest, roots } = options;
  if (onSamplingRequest) {
    client.setRequestHandler('sampling/createMessage', (request, context) =>
      onSamplingRequest(request.params, calls.requestContext(server, context.mcpReq.signal)),
    );
  }
  if (onElicitation) {
    client.setRequestHandler('elicitation/create', (request, context) =>
      onElicitation(request.params, calls.requestContext(server, context.mcpReq.signal)),
    );
  }
  if (onRootsRequest) {
    client.setRequestHandler('roots/list', (_request, context) =>
      onRootsRequest(calls.requestContext(server, context.mcpReq.signal)),
    );
  } else if (roots) {
    client.setRequestHandler('roots/list', async () => ({ roots }));
  }
  client.fallbackRequestHandler = refuseRequest;
}

/** Answers a server request nothing handles with an error saying what to configure (one for every client). */
async function refuseRequest(request: { method: string }): Promise<never> {
  const message = notEnabled[request.method];
  throw new ProtocolError(
    ProtocolErrorCode.MethodNotFound,
    message ?? `mcptools does not handle ${request.method}`,
  );
}
