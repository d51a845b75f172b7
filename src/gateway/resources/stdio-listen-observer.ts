import type { JSONRPCMessage, JSONRPCRequest, Transport } from '@modelcontextprotocol/server';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import type { DownstreamSession } from '../sessions/downstream-session.js';
import { wrapIncoming } from '../sessions/wrap-incoming.js';
import { holdListened } from './listen-subscriptions.js';
import type { ResourceHost } from './resource-host.js';

type RequestId = string | number;

/**
 * Watches a stdio connection's inbound `subscriptions/listen` requests (answered by the SDK's
 * stdio entry, never by the gateway's server) and holds an upstream subscription for every
 * wrapped resource URI a 2026-07-28 listener names, for the connection's session, until the
 * listen is cancelled or the session ends; the session's server then sends the updates, which
 * the SDK stamps onto the listening subscriptions. A listen request reaches the SDK once its
 * subscriptions are held, naming only the URIs the gateway holds (so the acknowledged filter
 * leaves out one it cannot serve or whose upstream refused); messages behind it wait for it,
 * keeping their order. `session()` is the connection's session.
 */
export function observeStdioListens(
  transport: Transport,
  core: ResourceHost,
  profile: GatewayProfile,
  session: () => DownstreamSession | undefined,
): void {
  const listens = new Map<RequestId, { session: DownstreamSession; uris: string[] }>();
  /** Holds the listen's subscriptions; resolves with the message to hand on (narrowed), or `message`. */
  const listen = async (message: JSONRPCRequest): Promise<JSONRPCMessage> => {
    const current = session();
    const params = message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined;
    const requested = params?.notifications?.resourceSubscriptions;
    if (current === undefined || !Array.isArray(requested)) return message;
    const uris = requested.filter((uri): uri is string => typeof uri === 'string');
    const kept = await holdListened(core, profile, current, uris);
    if (kept.length > 0) listens.set(message.id, { session: current, uris: kept });
    if (kept.length === requested.length) return message;
    return {
      ...message,
      params: { ...params, notifications: { ...params?.notifications, resourceSubscriptions: kept } },
    } as JSONRPCMessage;
  };
  const cancelled = (message: JSONRPCMessage) => {
    const id = (message as { params?: { requestId?: RequestId } }).params?.requestId;
    const ended = id === undefined ? undefined : listens.get(id);
    if (id === undefined || ended === undefined) return;
    listens.delete(id);
    const stillListened = new Set([...listens.values()].flatMap((other) => other.uris));
    for (const uri of ended.uris)
      if (!stillListened.has(uri) && !ended.session.ended) void core.unsubscribe(ended.session, uri);
  };
  // Messages wait behind a listen whose subscriptions are being held, in order.
  let queue: Promise<void> | undefined;
  let waiting = 0;
  const enqueue = (run: () => Promise<void> | void) => {
    waiting++;
    queue = (queue ?? Promise.resolve())
      .then(run)
      .catch((error: unknown) => core.log(`stdio: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (--waiting === 0) queue = undefined;
      });
  };
  // The SDK's stdio entry installs its own `onmessage`; every message passes here first. The
  // transport may watch its messages itself (an accessor of its own): chained to.
  wrapIncoming(transport, (next) => {
    return (message, extra) => {
      if ('method' in message && message.method === 'subscriptions/listen' && 'id' in message) {
        enqueue(async () => next(await listen(message), extra));
        return;
      }
      if ('method' in message && message.method === 'notifications/cancelled') cancelled(message);
      if (queue === undefined) next(message, extra);
      else enqueue(() => next(message, extra));
    };
  });
}
