import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../json/is-plain-object.js';

/**
 * Whether a parsed POST body is one JSON-RPC message (not `initialize`) whose params carry the
 * 2026-07-28 per-request envelope claim (the protocol-version `_meta` key). The SDK's
 * `isLegacyRequest` answers `false` for every such request — the 2026-07-28 handler serves or
 * rejects it — so the gateway routes it there without classifying it twice (that handler
 * classifies every request it gets). `initialize` is left out: with an invalid claim
 * it is still a 2025-era handshake.
 */
export function carriesEnvelopeClaim(body: unknown): boolean {
  if (!isPlainObject(body) || typeof body.method !== 'string' || body.method === 'initialize') return false;
  const params = body.params;
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}
