import { echoableId } from '../http/node-exchange.js';
import type { Caller } from '../tool/call-context.js';
import type { ClusterNode } from './cluster-node.js';
import { STOPPED_BEFORE_ANSWER } from './forward-request.js';
import { requestStateReplica } from './request-state-owner.js';
import type { RequestStateSeal } from './request-state-seal.js';

const unavailable = () =>
  Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'the cluster store (Redis) is unavailable; retry' },
      id: null,
    },
    { status: 503, headers: { 'retry-after': '1' } },
  );

/**
 * A 2026-07-28 retry of a call parked on another replica (its upstream is a 2025-era server
 * waiting there for the answers): forwarded to that replica. `undefined` when this replica
 * serves the request itself: not such a retry, the call is parked here, or the replica named is
 * gone (its heartbeat lapsed, or it refuses connections: SIGKILLed before the heartbeat lapsed)
 * — the gateway then answers at once with its `-32602` that says to re-issue the call. A retry
 * the replica received but died before answering gets a `-32603` saying so (it may have run).
 */
export async function forwardParkedRetry(
  node: ClusterNode,
  seal: RequestStateSeal,
  request: Request,
  who: Caller,
  body: unknown,
): Promise<Response | undefined> {
  const owner = requestStateReplica(seal, body, who);
  if (owner === undefined || owner === node.replicaId) return undefined;
  const url = await node.registry.lookup(owner).catch(() => null);
  if (url === null) return unavailable();
  if (url === undefined) return undefined;
  try {
    return await node.forward(request, url, who, body);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') return undefined;
    return Response.json({
      jsonrpc: '2.0',
      id: echoableId(body),
      error: { code: -32603, message: STOPPED_BEFORE_ANSWER },
    });
  }
}
