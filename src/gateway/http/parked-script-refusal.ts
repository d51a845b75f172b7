import { type QuotaKind, quotaRefusal } from './quota-refusal.js';

/**
 * The refusal of a new `run_script` call (`body`) of a principal whose scripts waiting for
 * answers already hold its quota of memory (or all of them the total): 429 with `Retry-After`,
 * before anything runs. `runsScripts` tells whether a tool name is the profile's `run_script`;
 * `refusal` is the principal's quota state. Every other call of that principal, and every other
 * principal's scripts, go on.
 */
export function parkedScriptRefusal(
  body: unknown,
  runsScripts: (tool: string) => boolean,
  refusal: () => { kind: QuotaKind; message: string } | undefined,
): Response | undefined {
  const call = body as
    | { method?: unknown; params?: { name?: unknown; requestState?: unknown; inputResponses?: unknown } }
    | undefined;
  if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') return undefined;
  if (!runsScripts(call.params.name)) return undefined;
  // A 2026-07-28 retry bringing answers continues a parked script (it frees its bytes): never refused.
  if (call.params.requestState !== undefined || call.params.inputResponses !== undefined) return undefined;
  const refused = refusal();
  return refused === undefined ? undefined : quotaRefusal(refused.kind, refused.message);
}
