import type { ReadResourceResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { toProtocolError } from '../calls/protocol-error.js';
import { serveDownstreamCall } from '../calls/serve-downstream-call.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';
import { type DownstreamSession, requestSession, sessionContext } from '../sessions/downstream-session.js';
import type { ResourceHost } from './resource-host.js';
import { locateResource, presentUri, type ResourceScope } from './resource-routing.js';
import { wrapResourceUri } from './resource-uri.js';

/**
 * The resource routing scope of a client of `profile`: the servers it admits and, through the
 * one visibility function, the session's caller may see.
 */
export function resourceScope(
  core: ResourceHost,
  profile: GatewayProfile,
  session: DownstreamSession,
): ResourceScope {
  return {
    index: core.resources,
    hub: core.hub,
    servers: core.hub.servers().filter((name) => profile.serves(name, session)),
  };
}

/** Awaits `run`, answering any failure as the JSON-RPC error the client gets. */
async function answering<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toProtocolError(error);
  }
}

/**
 * Serves resources to one downstream session under the URIs their servers gave:
 * `resources/list` and `resources/templates/list` (a URI or template two visible servers share
 * is listed once per server, as `mcptools://<server>/<uri>`), `resources/read`, and
 * `resources/subscribe` / `unsubscribe`, each routed by the gateway's {@link ResourceIndex}
 * (see `locateResource`).
 */
export function registerResourceHandlers(
  server: Server,
  core: ResourceHost,
  profile: GatewayProfile,
  session: DownstreamSession,
): void {
  const hub = core.hub;

  server.setRequestHandler('resources/list', async (_request, context) => {
    // Seen with the token presented on this request; listed for its caller (a per-caller server
    // lists theirs, or nothing).
    const viewer = requestSession(session, context.http?.authInfo);
    const { items, errors } = await hub.resources.listAll({
      context: sessionContext(viewer, context.mcpReq.signal),
    });
    for (const failure of errors) core.log(`resources of "${failure.server}": ${failure.error.message}`);
    const admitted = items.filter((item) => profile.serves(item.server, viewer));
    const failed = new Set(errors.map((failure) => failure.server));
    const byServer = new Map<string, string[]>();
    for (const item of admitted) byServer.set(item.server, [...(byServer.get(item.server) ?? []), item.uri]);
    const scope = resourceScope(core, profile, viewer);
    for (const name of scope.servers)
      if (!failed.has(name) && hub.status(name)?.state === 'connected')
        core.resources.recordResources(name, byServer.get(name) ?? []);
    return {
      resources: admitted.map(({ server: origin, ...item }) => ({
        ...item,
        uri: presentUri(scope, origin, item.uri),
      })),
    };
  });

  server.setRequestHandler('resources/templates/list', async (_request, context) => {
    const viewer = requestSession(session, context.http?.authInfo);
    const { items, errors } = await hub.resources.listAllTemplates({
      context: sessionContext(viewer, context.mcpReq.signal),
    });
    const admitted = items.filter((item) => profile.serves(item.server, viewer));
    const failed = new Set(errors.map((failure) => failure.server));
    const byServer = new Map<string, string[]>();
    for (const item of admitted)
      byServer.set(item.server, [...(byServer.get(item.server) ?? []), item.uriTemplate]);
    const scope = resourceScope(core, profile, viewer);
    for (const name of scope.servers)
      if (!failed.has(name) && hub.status(name)?.state === 'connected')
        core.resources.recordTemplates(name, byServer.get(name) ?? []);
    const shared = (template: string) => admitted.filter((item) => item.uriTemplate === template).length > 1;
    return {
      resourceTemplates: admitted.map(({ server: origin, ...item }) => ({
        ...item,
        uriTemplate: shared(item.uriTemplate) ? wrapResourceUri(origin, item.uriTemplate) : item.uriTemplate,
      })),
    };
  });

  server.setRequestHandler('resources/read', (request, context: ServerContext) =>
    serveDownstreamCall(
      { core, server, session, context },
      'resources/read',
      async () => {
        const asked = request.params.uri;
        const scope = resourceScope(core, profile, requestSession(session, context.http?.authInfo));
        const target = await answering(() => locateResource(scope, asked, context.mcpReq.signal));
        return async (call): Promise<ReadResourceResult> => {
          call.relayFor(target.server);
          const contents = await answering(() =>
            hub.resources.read(target.server, target.uri, {
              signal: call.signal,
              context: call.context(),
            }),
          );
          return {
            contents: contents.map((item) => ({
              ...item,
              // The resource asked for keeps the name it was asked by; others are named as listed.
              uri: item.uri === target.uri ? asked : presentUri(scope, target.server, item.uri),
            })) as never,
          };
        };
      },
      { name: request.params.uri },
    ),
  );

  server.setRequestHandler('resources/subscribe', async (request, context) => {
    const asked = request.params.uri;
    await answering(async () => {
      const target = await locateResource(
        resourceScope(core, profile, requestSession(session, context.http?.authInfo)),
        asked,
        context.mcpReq.signal,
      );
      await core.subscribe(session, asked, target);
    });
    session.onChange?.();
    return {};
  });

  server.setRequestHandler('resources/unsubscribe', async (request, context) => {
    const asked = request.params.uri;
    if (await core.unsubscribe(session, asked)) {
      session.onChange?.();
      return {};
    }
    // Subscribed by the other form of the same URI: find it through the index.
    const target = await locateResource(
      resourceScope(core, profile, requestSession(session, context.http?.authInfo)),
      asked,
      context.mcpReq.signal,
    ).catch(() => undefined);
    if (target !== undefined) await core.unsubscribe(session, wrapResourceUri(target.server, target.uri));
    session.onChange?.();
    return {};
  });
}
