import { isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { requestLoop } from '../../chain/gateway-chain.js';
import type { ClusterNode } from '../../cluster/cluster-node.js';
import type { ForwardedCaller } from '../../cluster/forward-signature.js';
import { forwardParkedRetry } from '../../cluster/parked-retry.js';
import { jsonRpcError } from '../../http/json-rpc-error-response.js';
import { countListenStream } from '../../telemetry/listen-stream-telemetry.js';
import { loopRefusal, type RequestPrincipal } from '../auth/http-guard.js';
import { principalAuth } from '../auth/request-caller.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import { serveListen } from '../resources/listen-subscriptions.js';
import type { ResourceHost } from '../resources/resource-host.js';
import type { ClientArrivals } from '../sessions/client-arrivals.js';
import type { Era2025Sessions } from '../sessions/era-2025-sessions.js';
import { releasedWithBody } from '../sessions/released-with-body.js';
import type { SseSessions, sseRoute } from '../sessions/sse-endpoint.js';
import { carriesEnvelopeClaim } from './envelope-claim.js';
import { toolCallParamRefusal } from './param-headers.js';
import { parkedScriptRefusal } from './parked-script-refusal.js';
import type { PrincipalQuota } from './principal-quota.js';
import { ownUpstreams, type UpstreamWaitScope } from './upstream-wait.js';
import type { UpstreamsGate } from './upstreams-ready.js';

/** What the MCP endpoints of one gateway serve with: its core, sessions, quotas and waits. */
export interface McpRouteParts {
  core: ResourceHost;
  /** Request bodies above this many bytes get 413. */
  maxBodyBytes: number;
  /** The wait for the first connect round of the upstreams. */
  upstreams: UpstreamsGate;
  /** What a request's wait for its own servers reads. */
  waitScope: () => UpstreamWaitScope;
  era2025Sessions: Era2025Sessions;
  sseSessions: SseSessions;
  /** The cap on 2026-07-28 `subscriptions/listen` streams, per principal and in all. */
  listenStreams: PrincipalQuota;
  arrivals: ClientArrivals;
  /** The cluster node, once joined (`undefined`: not in a cluster, or not joined yet). */
  cluster: () => ClusterNode | undefined;
  /** The SDK's 2026-07-28 handler of `profile`. */
  era2026Handler: (profile: GatewayProfile) => McpHttpHandler;
  /** The profile `/mcp` or `/mcp/<name>` serves `who`, or `undefined` (404). */
  profileOf: (name: string | undefined, who: RequestPrincipal) => GatewayProfile | undefined;
  /** Room for one more 2025-era session of a principal, or the refusal. */
  makeRoom: (principal: string) => Promise<Response | undefined>;
}

/** The two MCP endpoints of the HTTP face, as {@link mcpRoutes} makes them. */
export interface McpRoutes {
  /** `/mcp` and `/mcp/<profile>`: both eras, told apart by the request. */
  mcp(
    profile: GatewayProfile,
    request: Request,
    who: RequestPrincipal,
    parsedBody: unknown,
    forwardedBy: ForwardedCaller | undefined,
  ): Promise<Response>;
  /** The 2024-11-05 HTTP+SSE transport: a session's event stream, or a message POSTed to it (`parsedBody`). */
  sse(
    route: NonNullable<ReturnType<typeof sseRoute>>,
    request: Request,
    who: RequestPrincipal,
    parsedBody: unknown,
  ): Promise<Response>;
}

/**
 * The MCP endpoints of a gateway's HTTP face, for requests that passed the front door, with the
 * body of a `POST` read and parsed once before them (http/gateway-front.ts): loops refused, the
 * wait for the request's own upstreams, then the session of its era.
 */
export function mcpRoutes(parts: McpRouteParts): McpRoutes {
  /** The 2024-11-05 HTTP+SSE transport: a session's event stream, or a message POSTed to it. */
  const sse = async (
    route: NonNullable<ReturnType<typeof sseRoute>>,
    request: Request,
    who: RequestPrincipal,
    parsedBody: unknown,
  ): Promise<Response> => {
    if (parts.core.closing) return jsonRpcError(503, -32603, 'the gateway is shutting down');
    if (route.kind === 'message') {
      const body = parsedBody;
      const loop = requestLoop(body);
      if (loop !== undefined) return loopRefusal(loop);
      const url = new URL(request.url);
      // As at /mcp: a call waits for its own server, a profile's list for the servers it admits.
      await parts.upstreams.wait(body, () => {
        const profile = parts.sseSessions.profileOf(url, who);
        return profile === undefined ? undefined : ownUpstreams(parts.waitScope(), profile, who, body);
      });
      return parts.sseSessions.post(url, who, body);
    }
    const profile = parts.profileOf(route.profile === '' ? undefined : route.profile, who);
    if (profile === undefined) return new Response('Not Found\n', { status: 404 });
    const full = await parts.makeRoom(who.principal);
    if (full) return full;
    return parts.sseSessions.open(profile, who, request.signal);
  };

  // The body came read and parsed, and goes to the SDK as `parsedBody`: the era check and the
  // serving entry read nothing again.
  const mcp = async (
    profile: GatewayProfile,
    request: Request,
    who: RequestPrincipal,
    parsedBody: unknown,
    forwardedBy: ForwardedCaller | undefined,
  ): Promise<Response> => {
    if (parts.core.closing) return jsonRpcError(503, -32603, 'the gateway is shutting down');
    const body = parsedBody;
    // The gateway chain inside the client's capabilities: a bridge (mcp-remote) forwards those
    // where it drops our header (src/mcp/gateway-chain.ts).
    const loop = requestLoop(body);
    if (loop !== undefined) return loopRefusal(loop);
    const parked = parkedScriptRefusal(
      body,
      (tool) => profile.runsScripts(tool),
      () => parts.core.parkedScripts.refusal(who.principal),
    );
    if (parked !== undefined) return parked;
    // A call of a tool served already goes at once; one whose server still connects waits for
    // that server only, and a profile's list for the servers it admits.
    await parts.upstreams.wait(body, () => ownUpstreams(parts.waitScope(), profile, who, body));
    // Only a replica of this cluster may say it forwarded a request (signed with the cluster key),
    // and the body read must be the one it signed.
    const joined = parts.cluster();
    const forwarded = joined === undefined ? 'none' : joined.checkForwardedBody(request, forwardedBy, body);
    if (forwarded === 'forged') return jsonRpcError(403, -32000, 'Forbidden: invalid forwarding signature');
    // A session id names a 2025 session (a 2026-07-28 request carries none): no need to classify.
    if (
      !carriesEnvelopeClaim(body) &&
      (request.headers.has('mcp-session-id') ||
        (await isLegacyRequest(request, body, { maxRequestBodySize: parts.maxBodyBytes })))
    )
      return parts.era2025Sessions.serve(profile, request, who, body, forwarded === 'valid');
    parts.arrivals.request(body);
    const mismatch = await toolCallParamRefusal(body, request.headers, (name) =>
      profile.tool(name, { owner: who.owner, caller: who }),
    );
    if (mismatch !== undefined) return mismatch;
    const respond = (request2026: Request, parsed: unknown = body) =>
      parts.era2026Handler(profile).fetch(request2026, {
        authInfo: principalAuth(who),
        ...(parsed === undefined ? {} : { parsedBody: parsed }),
      });
    // A 2026-07-28 listener of resource updates gets them subscribed upstream on its behalf.
    if (request.headers.get('mcp-method') === 'subscriptions/listen') {
      // Each stream holds a connection and a descriptor: capped per principal and in all.
      const release = parts.listenStreams.take(who.principal);
      if (release instanceof Response) return release;
      // Released when the stream ends or the client goes, whichever comes first.
      request.signal.addEventListener('abort', release, { once: true });
      let served: Response;
      try {
        served = await serveListen(parts.core, profile, request, who, respond, body);
      } catch (error) {
        release();
        throw error;
      }
      return countListenStream(releasedWithBody(served, release));
    }
    // A retry of a call parked on a 2025 upstream of another replica is served there.
    const cluster = parts.cluster();
    if (cluster !== undefined && forwarded === 'none') {
      const parked = await forwardParkedRetry(cluster, parts.core.requestStates, request, who, body);
      if (parked !== undefined) return parked;
    }
    return respond(request);
  };

  return { mcp, sse };
}
