import type { ClusterNode } from './cluster-node.js';

/**
 * `/readyz`: 200 while this gateway takes traffic; 503 while it shuts down, drains, or (in
 * cluster mode) cannot reach Redis. An upstream server being down never fails it: another
 * replica would have the same upstreams.
 */
export function readiness(closing: boolean, node: ClusterNode | undefined): Response {
  const why = closing
    ? 'shutting down'
    : node?.draining
      ? 'draining'
      : node !== undefined && !node.registry.healthy
        ? 'the cluster store (Redis) is unreachable'
        : undefined;
  return Response.json(why === undefined ? { ready: true } : { ready: false, reason: why }, {
    status: why === undefined ? 200 : 503,
    headers: { 'cache-control': 'no-store' },
  });
}

/**
 * SIGTERM in cluster mode: stop taking new sessions (`/readyz` fails), let the calls in flight
 * finish within the drain period, then hand this replica's sessions over so another replica
 * adopts them on their next request instead of waiting for this heartbeat to lapse.
 */
export async function drainCluster(
  node: ClusterNode,
  core: { readonly calls: { readonly size: number } },
  log: (line: string) => void,
): Promise<void> {
  node.drain();
  const until = Date.now() + node.settings.drainMs;
  if (core.calls.size > 0) log(`cluster: draining; waiting for ${core.calls.size} call(s) in flight`);
  while (core.calls.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  await node.handOver();
}
