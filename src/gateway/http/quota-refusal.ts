import { countQuotaRefusal } from '../../telemetry/quota-telemetry.js';

/** How long a refused client is asked to wait before it tries again (`Retry-After`, seconds). */
export const QUOTA_RETRY_AFTER_SECONDS = 5;

/** Which quota refused a request (the label of the refusals metric; never a principal). */
export type QuotaKind =
  | 'sessions'
  | 'sessions_per_principal'
  | 'listen_streams'
  | 'listen_streams_per_principal'
  | 'parked_script_bytes'
  | 'parked_script_bytes_per_principal';

/**
 * The answer to a request a quota refused: 429 with `Retry-After` and a JSON-RPC error that
 * names the limit, never another caller; counted in `mcptools.gateway.quota.refusals`.
 */
export function quotaRefusal(kind: QuotaKind, message: string): Response {
  countQuotaRefusal(kind);
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message }, id: null },
    { status: 429, headers: { 'retry-after': String(QUOTA_RETRY_AFTER_SECONDS) } },
  );
}
