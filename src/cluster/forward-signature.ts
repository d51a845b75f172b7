import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The header a replica puts on a request it forwards to another: `v1.<unix ms>.<hex HMAC>`. */
export const FORWARD_HEADER = 'mcptools-forwarded';

/** A forwarded request older (or newer) than this is refused: clocks of one cluster agree this well. */
const MAX_SKEW_MS = 30_000;

/** What a forwarding MAC covers. */
export interface ForwardedExchange {
  method: string;
  /** The request's path (and query). */
  path: string;
  /** The `Mcp-Session-Id` it carries, or `''`. */
  sessionId: string;
  /** The principal the forwarding replica authenticated. */
  principal: string;
  /** The body as sent (`''` for none). */
  body: string;
}

function mac(key: Buffer, exchange: ForwardedExchange, time: string): Buffer {
  const bodyHash = createHash('sha256').update(exchange.body).digest('hex');
  return createHmac('sha256', key)
    .update(
      ['v1', exchange.method, exchange.path, exchange.sessionId, exchange.principal, time, bodyHash].join(
        '\n',
      ),
    )
    .digest();
}

/** The {@link FORWARD_HEADER} value for `exchange`, signed now with the cluster's forwarding key. */
export function signForward(key: Buffer, exchange: ForwardedExchange, now = Date.now()): string {
  const time = String(now);
  return `v1.${time}.${mac(key, exchange, time).toString('hex')}`;
}

/**
 * Whether `header` is a valid signature of `exchange` made by a replica of this cluster within
 * the last {@link MAX_SKEW_MS} (compared in constant time).
 */
export function verifyForward(
  key: Buffer,
  header: string,
  exchange: ForwardedExchange,
  now = Date.now(),
): boolean {
  const match = /^v1\.(\d{1,15})\.([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const time = match[1]!;
  if (Math.abs(now - Number(time)) > MAX_SKEW_MS) return false;
  return timingSafeEqual(mac(key, exchange, time), Buffer.from(match[2]!, 'hex'));
}
