import { randomUUID } from 'node:crypto';
import type { RequestPrincipal } from '../auth/http-guard.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import { createSession, type DownstreamSession } from '../sessions/downstream-session.js';
import { releasedWithBody } from '../sessions/released-with-body.js';
import { resourceScope } from './gateway-resource-handlers.js';
import type { ResourceHost } from './resource-host.js';
import { locateResource } from './resource-routing.js';

/** The `resourceSubscriptions` of a `subscriptions/listen` body, or `undefined` when it names none. */
function listenedUris(body: unknown): string[] | undefined {
  const params = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } })?.params;
  const uris = params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : undefined;
}

/** `body` with its `resourceSubscriptions` narrowed to `kept`. */
function narrowed(body: unknown, kept: string[]): unknown {
  const message = body as { params: { notifications: Record<string, unknown> } };
  return {
    ...message,
    params: {
      ...message.params,
      notifications: { ...message.params.notifications, resourceSubscriptions: kept },
    },
  };
}

/**
 * Holds an upstream subscription for `session` to each of `uris` the gateway can route to a
 * server `profile` admits and the session's caller may see (see `locateResource`); returns those
 * it holds (`active`, or `pending` while their server is away), without those it cannot route or
 * the upstream refused (logged).
 */
export async function holdListened(
  core: ResourceHost,
  profile: GatewayProfile,
  session: DownstreamSession,
  uris: string[],
): Promise<string[]> {
  const scope = resourceScope(core, profile, session);
  const held = await Promise.all(
    uris.map(async (uri) => {
      try {
        await core.subscribe(session, uri, await locateResource(scope, uri));
        return true;
      } catch (error) {
        core.log(`subscriptions/listen ${uri}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      }
    }),
  );
  return uris.filter((_uri, index) => held[index]);
}

/**
 * Serves a 2026-07-28 `subscriptions/listen` request (`respond` is the SDK handler) and, for
 * every resource URI it listens to, holds a subscription upstream for as long as the
 * stream is open: counted with the 2025-era sessions' subscriptions, so the upstream sees one
 * `resources/subscribe` per URI and a `resources/unsubscribe` when the last listener or
 * session leaves. The acknowledged filter (`honoredFilter`) names only the URIs the gateway
 * holds: one it cannot serve, or whose upstream refused, is left out, so the client knows.
 * Only the `Mcp-Method: subscriptions/listen` request's body is read here (`parsedBody` when
 * the caller has read it already).
 */
export async function serveListen(
  core: ResourceHost,
  profile: GatewayProfile,
  request: Request,
  who: string | RequestPrincipal,
  respond: (request: Request, parsedBody?: unknown) => Promise<Response>,
  parsedBody?: unknown,
): Promise<Response> {
  let body: unknown = parsedBody;
  if (body === undefined) {
    try {
      body = await request.clone().json();
    } catch {
      return respond(request);
    }
  }
  const uris = listenedUris(body);
  if (uris === undefined) return respond(request, body);
  // The caller's access rules decide which servers' updates it may listen to.
  const listener =
    typeof who === 'string'
      ? createSession(randomUUID(), '2026-07-28', false, who)
      : createSession(randomUUID(), '2026-07-28', who.owner, who.principal, who);
  const release = () => core.endSession(listener);
  const kept = await holdListened(core, profile, listener, uris);
  const acknowledged = kept.length === uris.length ? body : narrowed(body, kept);
  if (kept.length === 0) {
    release();
    return respond(request, acknowledged);
  }
  let response: Response;
  try {
    response = await respond(request, acknowledged);
  } catch (error) {
    release();
    throw error;
  }
  if (response.body === null || !response.headers.get('content-type')?.includes('text/event-stream')) {
    release();
    return response;
  }
  // The stream ends when the client goes, the gateway closes it, or the request aborts.
  request.signal.addEventListener('abort', release, { once: true });
  return releasedWithBody(response, release);
}
