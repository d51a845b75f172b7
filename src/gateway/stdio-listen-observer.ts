import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { DownstreamSession } from './downstream-session.js';
import type { GatewayCore } from './gateway-core.js';
import type { GatewayProfile } from './gateway-profile.js';
import { unwrapResourceUri } from './resource-uri.js';

type RequestId = string | number;

/**
 * Watches a stdio connection's inbound `subscriptions/listen` requests (answered by the SDK's
 * stdio entry, never by the gateway's server) and holds an upstream subscription for every
 * wrapped resource URI a 2026-07-28 listener names, for the connection's session, until the
 * listen is cancelled or the session ends; the session's server then sends the updates, which
 * the SDK stamps onto the listening subscriptions. `session()` is the connection's session.
 */
export function observeStdioListens(
  transport: Transport,
  core: GatewayCore,
  profile: GatewayProfile,
  session: () => DownstreamSession | undefined,
): void {
  const listens = new Map<RequestId, { session: DownstreamSession; uris: string[] }>();
  const observe = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'subscriptions/listen' && 'id' in message) {
      const current = session();
      const requested = (
        message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined
      )?.notifications?.resourceSubscriptions;
      if (current === undefined || !Array.isArray(requested)) return;
      const servers = new Set(core.provider.servers());
      const uris = requested.filter((uri): uri is string => {
        const origin = typeof uri === 'string' ? unwrapResourceUri(uri) : undefined;
        return origin !== undefined && servers.has(origin.server) && profile.allowsServer(origin.server);
      });
      if (uris.length === 0) return;
      listens.set(message.id, { session: current, uris });
      for (const uri of uris)
        void core.subscribe(current, uri).catch((error: unknown) => {
          core.log(`subscriptions/listen ${uri}: ${error instanceof Error ? error.message : String(error)}`);
        });
      return;
    }
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const listen = id === undefined ? undefined : listens.get(id);
      if (id === undefined || listen === undefined) return;
      listens.delete(id);
      const stillListened = new Set([...listens.values()].flatMap((other) => other.uris));
      for (const uri of listen.uris)
        if (!stillListened.has(uri) && !listen.session.ended) void core.unsubscribe(listen.session, uri);
    }
  };
  // The SDK's stdio entry installs its own `onmessage`; every message passes here first.
  let handler: Transport['onmessage'];
  const wrap = (next: NonNullable<Transport['onmessage']>): Transport['onmessage'] => {
    return (message, extra) => {
      try {
        observe(message);
      } catch (error) {
        core.log(`stdio: ${error instanceof Error ? error.message : String(error)}`);
      }
      next(message, extra);
    };
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      handler = next === undefined ? undefined : wrap(next);
    },
  });
}
