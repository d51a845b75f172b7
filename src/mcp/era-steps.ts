import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import type { ProtocolMode } from '../config/config-types.js';
import { DEPRECATED_PROTOCOL_MODES } from '../config/protocol-mode.js';
import type { ProtocolEra, TransportKind } from './hub-types.js';

/**
 * One way of opening a connection: `2025` sends `initialize`, `2026-07-28` asks
 * `server/discover` for 2026-07-28 only, `auto` asks `server/discover` and falls back to
 * `initialize` on the same connection.
 */
export type EraStep = ProtocolEra | 'auto';

/**
 * The steps a connect tries, in order, for `mode`: the next one runs only when the server
 * refused the one before ({@link refusedEra}). A remembered era goes first; a pinned mode
 * has a single step. HTTP+SSE predates 2026-07-28, so it is always `2025`.
 */
export function eraSteps(given: ProtocolMode, kind: TransportKind, remembered?: ProtocolEra): EraStep[] {
  // A caller of the library in JavaScript may still pass a deprecated name (`legacy`, …).
  const mode = DEPRECATED_PROTOCOL_MODES[given] ?? given;
  if (kind === 'sse' || mode === '2025') return ['2025'];
  if (mode === '2026-07-28') return ['2026-07-28'];
  if (remembered === '2026-07-28') return ['2026-07-28', '2025'];
  if (mode === '2025-first' || remembered === '2025') return ['2025', '2026-07-28'];
  return ['auto', '2025'];
}

/** The JSON-RPC error an HTTP error response carries in its body, if it carries one. */
function hasJsonRpcErrorBody(error: SdkHttpError): boolean {
  const text = (error.data as { text?: unknown } | undefined)?.text;
  if (typeof text !== 'string') return false;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof body?.error?.code === 'number';
  } catch {
    return false;
  }
}

/** `true` when a network failure (refused, reset, unreachable) lies behind `error`. */
function hasNetworkCause(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (typeof (current as NodeJS.ErrnoException).code === 'string' && current !== error) {
      if (/^E[A-Z]+$|^UND_ERR/.test((current as NodeJS.ErrnoException).code!)) return true;
    }
    current = current.cause;
  }
  return false;
}

/**
 * `true` when `error` says the server does not speak the era just tried — it answered the
 * opening with a JSON-RPC error (over stdio, or in an HTTP 4xx body), named a protocol version
 * we do not speak, did not offer the pinned 2026-07-28 via `server/discover`, or exited on the
 * `server/discover` probe — so that the other era is worth trying. Timeouts, aborts, network
 * failures and authorization errors are not refusals.
 */
export function refusedEra(error: unknown): boolean {
  if (ProtocolError.isInstance(error)) return true;
  if (SdkHttpError.isInstance(error)) {
    const status = error.status ?? 0;
    return (
      status >= 400 && status < 500 && ![401, 403, 404, 405].includes(status) && hasJsonRpcErrorBody(error)
    );
  }
  if (SdkError.isInstance(error)) {
    return error.code === SdkErrorCode.EraNegotiationFailed && !hasNetworkCause(error);
  }
  return error instanceof Error && error.message.startsWith("Server's protocol version is not supported");
}
