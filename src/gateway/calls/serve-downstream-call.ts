import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequiredResult,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { RequestStatePayload } from '../../cluster/request-state-seal.js';
import { clientGoneOf, type GoneSignal } from '../../http/node-exchange.js';
import { observeDownstreamRequest } from '../../telemetry/downstream-request-telemetry.js';
import { callerOf, type DownstreamSession, requestSession } from '../sessions/downstream-session.js';
import type { CallHost } from './call-host.js';
import {
  argumentsDigest,
  type CallMethod,
  DownstreamCall,
  type DownstreamRequest,
  type ForwardedRequest,
} from './downstream-call.js';

/** The capabilities the client of a request declared: its envelope's (2026-07-28) or its session's. */
export function capabilitiesOf(server: Server, context: ServerContext): ClientCapabilities | undefined {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return declared ?? server.getClientCapabilities();
}

function envelopeLogLevel(context: ServerContext): LoggingLevel | undefined {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const level = envelope?.[LOG_LEVEL_META_KEY];
  return typeof level === 'string' ? (level as LoggingLevel) : undefined;
}

/**
 * How a 2025-era call pushes an upstream's request to its client: related to the call's own
 * request, so over HTTP it rides that request's response stream (the SDK's `elicitInput` and
 * `requestSampling` send unrelated requests, on the session's GET stream, unless told).
 */
function pushFor(context: ServerContext) {
  return (request: ForwardedRequest, signal: AbortSignal): Promise<unknown> => {
    const options = { signal, relatedRequestId: context.mcpReq.id };
    if (request.method === 'elicitation/create')
      return context.mcpReq.elicitInput(request.params as never, options);
    if (request.method === 'sampling/createMessage')
      return context.mcpReq.requestSampling(request.params as never, options);
    return context.mcpReq.send({ method: 'roots/list' }, options);
  };
}

/** The upstream work of a downstream call, for the call `call`. */
export type UpstreamWork<T extends Result> = (call: DownstreamCall) => Promise<T>;

/** Where a downstream call is served: the gateway, the SDK server and session, the request. */
export interface DownstreamCallScope {
  core: CallHost;
  server: Server;
  session: DownstreamSession;
  context: ServerContext;
}

/**
 * Serves one downstream `tools/call`, `resources/read` or `prompts/get` as a
 * {@link DownstreamCall}: `prepare` resolves the target (and may refuse it) and returns the
 * upstream work, which is handed the call and passes its context (`call.context()`) to every
 * upstream request it makes, so progress, logs, cancellation and server→client requests stay
 * with this call. A 2026-07-28
 * request gets an upstream's requests as `input_required` rounds (its retry, naming the
 * round's sealed `requestState`, resumes the parked call on the replica that parked it, or
 * continues a relayed upstream round on any replica); a 2025-era one gets them pushed, related
 * to its own request. Cancelled by `notifications/cancelled`, by the HTTP connection of a 2025
 * request closing, by the session ending and by the gateway closing.
 */
export function serveDownstreamCall<T extends Result>(
  scope: DownstreamCallScope,
  method: CallMethod,
  prepare: () => UpstreamWork<T> | Promise<UpstreamWork<T>>,
  request: DownstreamRequest,
): Promise<T | InputRequiredResult> {
  const { session, context } = scope;
  // A resource URI is never recorded in telemetry; tool and prompt names are.
  const target = method === 'resources/read' ? undefined : request.name;
  // Traced and counted (a no-op without an OpenTelemetry SDK), as a child of the client's span.
  return observeDownstreamRequest(
    {
      method,
      ...(target === undefined ? {} : { target }),
      ...(context.mcpReq._meta === undefined
        ? {}
        : { meta: context.mcpReq._meta as Record<string, unknown> }),
      ...(context.http?.req === undefined ? {} : { headers: context.http.req.headers }),
      ...(session.era === '2025' ? { sessionId: session.id } : {}),
      era: session.era,
      principal: session.principal,
    },
    () => serveCall(scope, method, prepare, request),
  );
}

async function serveCall<T extends Result>(
  scope: DownstreamCallScope,
  method: CallMethod,
  prepare: () => UpstreamWork<T> | Promise<UpstreamWork<T>>,
  request: DownstreamRequest,
): Promise<T | InputRequiredResult> {
  const { core, server, session, context } = scope;
  // A retry's state was opened by the server's `requestState.verify` hook (a state that does
  // not open never gets here: the SDK answers -32602).
  const state =
    session.era === '2026-07-28' ? context.mcpReq.requestState<RequestStatePayload | string>() : undefined;
  if (typeof state === 'string' || state?.kind === 'task')
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid requestState');
  if (state?.kind === 'parked') {
    if (state.replica !== core.replicaId)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `requestState names a ${method} waiting for input on another gateway replica, which cannot be reached from this one; re-issue the call without requestState`,
      );
    const parked = core.takeParked(state.call, session, method, state.round);
    if (parked === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `requestState names no ${method} waiting for input (answered, expired or ended); re-issue the call without requestState`,
      );
    }
    parked.resume((context.mcpReq.inputResponses ?? {}) as Record<string, unknown>);
    parked.logTo = (level, data, logger) => context.mcpReq.log(level, data, logger);
    return (await core.round(parked, context.mcpReq.signal)) as T | InputRequiredResult;
  }
  // Checked first: a gateway that is closing (or was stopped while its servers connected, and
  // so has no tools) refuses every new call the same way.
  if (core.closing) throw new ProtocolError(ProtocolErrorCode.InternalError, 'the gateway is shutting down');
  // A target resolved at once (a tool of a listed profile) costs no promise.
  const prepared = prepare();
  const run = prepared instanceof Promise ? await prepared : prepared;
  const call = new DownstreamCall(
    session,
    method,
    () => capabilitiesOf(server, context),
    session.era === '2025' ? pushFor(context) : undefined,
  );
  // Its caller as the token presented on this request shows them (a 2025 session's may differ).
  call.caller = callerOf(requestSession(session, context.http?.authInfo));
  // A 2025-era call is never relayed (only a 2026-07-28 round seals what it asked for): its
  // arguments are not digested.
  const asked =
    session.era === '2026-07-28'
      ? { target: request.name, digest: argumentsDigest(request.arguments) }
      : undefined;
  call.request = asked;
  // A relayed round's retry: a new call, which hands the upstream its own state and the answers.
  if (state?.kind === 'relay' && asked !== undefined) {
    const inputResponses = (context.mcpReq.inputResponses ?? {}) as Record<string, unknown>;
    // Its first retry continues the call (counted once) when it asks for what the round's call
    // asked for (the same tool, prompt or URI, the same arguments); anything else, and the same
    // round sent again, is a new call, limited and audited as one.
    const continuation =
      state.target === asked.target &&
      state.digest === asked.digest &&
      (await scope.core.relayContinuations.first(
        session.principal,
        state.server,
        state.name,
        state.round ?? state.state,
      ));
    call.continueUpstream(
      state.server,
      state.name,
      { inputResponses, ...(state.state === undefined ? {} : { requestState: state.state }) },
      continuation,
    );
  } else if (
    state === undefined &&
    session.era === '2026-07-28' &&
    context.mcpReq.inputResponses !== undefined
  )
    call.answerUpstream(context.mcpReq.inputResponses as Record<string, unknown>);
  const execute = (): Promise<T> =>
    run(call).then((result) => {
      if (core.closing)
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'the gateway is shutting down');
      return result;
    });
  core.beginCall(call);
  if (session.era === '2026-07-28') {
    call.logTo = (level, data, logger) => context.mcpReq.log(level, data, logger);
    call.envelopeLogLevel = envelopeLogLevel(context);
    call.start(execute);
    return (await core.round(call, context.mcpReq.signal)) as T | InputRequiredResult;
  }
  // Cancelled by the client (`notifications/cancelled`) or by its HTTP connection closing
  // before the answer (a POST dropped without a DELETE). The connection is watched through the
  // Node face's own notice: reading the request's `signal` would make an `AbortController`
  // (an `EventTarget`, made transferable on Node 20) for every call.
  const httpRequest = context.http?.req;
  const signals: GoneSignal[] = [context.mcpReq.signal];
  if (httpRequest !== undefined) signals.push(clientGoneOf(httpRequest));
  call.logTo = (level, data, logger) =>
    context.mcpReq.notify({ method: 'notifications/message', params: { level, data, logger } });
  const onAbort = () => call.cancel('the client cancelled the call');
  for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await execute();
  } finally {
    for (const signal of signals) signal.removeEventListener('abort', onAbort);
    core.endCall(call);
  }
}
