import type { CreateMessageResult, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { McpServerRequestRouter } from '../../mcp/routed-server-requests.js';
import type { ServerRequestContext } from '../../mcp/server-requests.js';
import type { UpstreamRequestContext } from '../../tool/call-context.js';
import type { ForwardedRequest } from './downstream-call.js';

/**
 * The downstream call a server→client request belongs to: the call the protocol links it to
 * (`context.caller`); without a link, the only downstream session with calls in flight to that
 * server; otherwise none — the request is refused rather than guessed.
 */
export function attributeServerRequest(context: ServerRequestContext, what: string): UpstreamRequestContext {
  const linked = context.caller?.upstream;
  if (linked !== undefined) return linked;
  const calls = context.callersInFlight.flatMap((caller) =>
    caller.upstream === undefined ? [] : [caller.upstream],
  );
  const sessions = new Set(calls.map((call) => call.sessionId));
  if (sessions.size === 1) return calls[calls.length - 1]!;
  const message =
    sessions.size === 0
      ? `server "${context.server}" asked for ${what} outside any gateway call; refused`
      : `server "${context.server}" asked for ${what} while calls from ${sessions.size} downstream sessions are in flight and its transport does not say which call asked; refused rather than guessed (a server that offers 2026-07-28 links its requests: set its "protocol" to "auto")`;
  throw new ProtocolError(ProtocolErrorCode.InvalidRequest, message);
}

async function forward(request: ForwardedRequest, context: ServerRequestContext, what: string) {
  const call = attributeServerRequest(context, what);
  return call.ask(request, context.signal, call === context.caller?.upstream);
}

/**
 * The router a gateway installs on the hub it serves (`hub.routeServerRequests`): every
 * elicitation, sampling and roots request of an upstream goes to the downstream client whose
 * call caused it (see {@link attributeServerRequest}).
 */
export function gatewayRequestRouter(): McpServerRequestRouter {
  return {
    onElicitation: async (params, context) =>
      (await forward(
        { method: 'elicitation/create', params: params as Record<string, unknown> },
        context,
        'elicitation',
      )) as ElicitResult,
    onSamplingRequest: async (params, context) =>
      (await forward(
        { method: 'sampling/createMessage', params: params as Record<string, unknown> },
        context,
        'sampling',
      )) as CreateMessageResult,
    onRootsRequest: async (context) =>
      (await forward({ method: 'roots/list' }, context, 'roots')) as ListRootsResult,
  };
}

/**
 * The `loadMcpServers` options that make the hub hand every elicitation, sampling and roots
 * request of an upstream to the gateway's downstream client whose call caused it.
 *
 * @deprecated `createGateway` routes them itself (`hub.routeServerRequests`); passing these
 * still works (handlers given to `loadMcpServers` answer first). Removed in the next release.
 */
export function gatewayServerRequests(): McpServerRequestRouter {
  return gatewayRequestRouter();
}
