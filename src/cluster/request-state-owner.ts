import type { Caller } from '../tool/call-context.js';
import type { RequestStateSeal } from './request-state-seal.js';

/** The downstream methods whose 2026-07-28 retries carry the gateway's `requestState`. */
const CALL_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * The replica holding the call a 2026-07-28 retry continues, read from the retry's JSON-RPC
 * body (`{ method, params: { requestState } }`): the `replicaId` of the gateway that parked it
 * (a call waiting on a 2025-era upstream's request), or `undefined` when no replica holds it —
 * not a retry, a relayed upstream `input_required` (any replica continues it), or a state that
 * does not open for `who` (tampered, expired, another key, method, principal or client; the
 * replica that receives it refuses it). Cluster mode forwards a retry whose replica is another
 * live one to it; synchronous and free of I/O (one AES-GCM open), so it can sit on every request.
 *
 * @example
 * const owner = requestStateReplica(seal, body, who);
 * if (owner !== undefined && owner !== replicaId) return forwardTo(owner, request);
 */
export function requestStateReplica(seal: RequestStateSeal, body: unknown, who: Caller): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (typeof method !== 'string' || !CALL_METHODS.has(method)) return undefined;
  const state = (params as { requestState?: unknown } | undefined)?.requestState;
  if (typeof state !== 'string') return undefined;
  const payload = seal.open(state, { method, principal: who.principal, client: who.clientId });
  return payload?.kind === 'parked' ? payload.replica : undefined;
}
