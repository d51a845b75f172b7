import type { ClusterNode } from '../../cluster/cluster-node.js';
import { FORWARD_HEADER, type ForwardedCaller } from '../../cluster/forward-signature.js';
import type { HeaderSource } from '../../http/header-source.js';
import { jsonRpcError } from '../../http/json-rpc-error-response.js';
import { guardRequest, type HttpGuardSettings } from '../auth/http-guard.js';

/** A gateway in cluster mode as a request sees it: the node once joined, and the join. */
export interface ClusterMembership {
  /** The node, once joined. */
  node(): ClusterNode | undefined;
  /** Joins the cluster, or waits for the join under way. */
  join(): Promise<ClusterNode>;
}

/**
 * Joins the cluster before a request is served (a no-op once joined): `undefined`, or the 503
 * a request gets while the cluster's store (Redis) cannot be reached.
 */
export async function joinBeforeServing(cluster: ClusterMembership): Promise<Response | undefined> {
  if (cluster.node() !== undefined) return undefined;
  try {
    await cluster.join();
    return undefined;
  } catch {
    return jsonRpcError(503, -32000, 'the cluster store (Redis) is unavailable');
  }
}

/**
 * A request another replica of the cluster forwarded: the caller its signed header vouches for
 * (that replica's front door verified the client's token, which stays there), the refusal of a
 * header that does not check out, or `undefined` for a request that carries none. Host, Origin,
 * the gateway chain and the declared size are checked as for any request. `cluster` is
 * `undefined` outside cluster mode, where every forwarding header is forged.
 */
export async function forwardedCaller(
  request: HeaderSource,
  method: string,
  target: string,
  settings: HttpGuardSettings,
  cluster: ClusterMembership | undefined,
): Promise<ForwardedCaller | Response | undefined> {
  const header = request.headers.get(FORWARD_HEADER);
  if (header === null) return undefined;
  const url = new URL(target, 'http://gateway.invalid');
  const path = url.pathname + url.search;
  const forged = () => jsonRpcError(403, -32000, 'Forbidden: invalid forwarding signature');
  if (cluster === undefined) return forged();
  const checked = guardRequest(request, {
    maxBodyBytes: settings.maxBodyBytes,
    ...(settings.allowedHostnames === undefined ? {} : { allowedHostnames: settings.allowedHostnames }),
  });
  if (checked instanceof Response) return checked;
  const unavailable = await joinBeforeServing(cluster);
  if (unavailable !== undefined) return unavailable;
  // Forwarded requests are of sessions and parked calls: nothing but /mcp is served to one.
  if (!/^\/mcp(?:\/|\?|$)/.test(path)) return forged();
  return (
    (await cluster.node()?.acceptForwarded(header, {
      method,
      path,
      sessionId: request.headers.get('mcp-session-id') ?? '',
    })) ?? forged()
  );
}
