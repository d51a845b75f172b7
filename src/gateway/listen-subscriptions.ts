import { randomUUID } from 'node:crypto';
import { createSession } from './downstream-session.js';
import type { GatewayCore } from './gateway-core.js';
import type { GatewayProfile } from './gateway-profile.js';
import { unwrapResourceUri } from './resource-uri.js';

/** The `resourceSubscriptions` of a `subscriptions/listen` body, or `[]`. */
function listenedUris(body: unknown): string[] {
  const params = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } })?.params;
  const uris = params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}

/**
 * Serves a 2026-07-28 `subscriptions/listen` request (`respond` is the SDK handler) and, for
 * every wrapped resource URI it listens to, holds a subscription upstream for as long as the
 * stream is open: counted with the 2025-era sessions' subscriptions, so the upstream sees one
 * `resources/subscribe` per URI and a `resources/unsubscribe` when the last listener or
 * session leaves. Only the `Mcp-Method: subscriptions/listen` request's body is read here
 * (`parsedBody` when the caller has read it already).
 */
export async function serveListen(
  core: GatewayCore,
  profile: GatewayProfile,
  request: Request,
  principal: string,
  respond: (request: Request) => Promise<Response>,
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
  const servers = new Set(core.provider.servers());
  const uris = listenedUris(body).filter((uri) => {
    const origin = unwrapResourceUri(uri);
    return origin !== undefined && servers.has(origin.server) && profile.allowsServer(origin.server);
  });
  if (uris.length === 0) return respond(request);
  const listener = createSession(randomUUID(), 'modern', false, principal);
  const release = () => core.endSession(listener);
  await Promise.all(
    uris.map((uri) =>
      core.subscribe(listener, uri).catch((error: unknown) => {
        core.log(`subscriptions/listen ${uri}: ${error instanceof Error ? error.message : String(error)}`);
      }),
    ),
  );
  let response: Response;
  try {
    response = await respond(request);
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
  const reader = response.body.getReader();
  const watched = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(watched, { status: response.status, headers: response.headers });
}
