import type { ClusterNode } from './cluster-node.js';

/**
 * The replica a 2026-07-28 retry's sealed `requestState` names, when it is not this one: a
 * call parked on a 2025 upstream is held there, so its retry must be forwarded to it.
 *
 * PENDING (issue 27): the sealed state and the function that reads its replica come from the
 * h27-state branch (`requestStateKey`, `replicaId`). Until it lands this reads nothing and every
 * retry is served where it arrives — this is the single call site to connect to it.
 */
export function retryOwner(_node: ClusterNode, _body: unknown): string | undefined {
  return undefined;
}
