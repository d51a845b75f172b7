import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  type Implementation,
  type McpHttpHandler,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { drainCluster, readiness } from '../cluster/cluster-drain.js';
import { ClusterNode, checkClusterOptions } from '../cluster/cluster-node.js';
import type { ForwardedCaller } from '../cluster/forward-signature.js';
import { clusterEventStores } from '../cluster/redis-event-stores.js';
import { sharedRelayRounds } from '../cluster/relay-rounds.js';
import { type ReplicaServices, startReplicaServices } from '../cluster/replica-services.js';
import { relaySignIns, type SignInRelay } from '../cluster/sign-in-relay.js';
import type { McpToolsConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { serveNodeExchange } from '../http/node-exchange.js';
import { WebExchange } from '../http/web-exchange.js';
import { usesCallerCredentials } from '../mcp/principal-connections.js';
import { eraFromSdk } from '../mcp/sdk-era.js';
import { observeGatewaySessions } from '../telemetry/state-gauges.js';
import { serveCallerUpstreams } from './auth/caller-upstreams.js';
import { frontDoor } from './auth/front-door.js';
import { gatewayBrowserLogin } from './auth/gateway-browser-login.js';
import type { HttpGuardSettings, RequestPrincipal } from './auth/http-guard.js';
import { authCaller } from './auth/request-caller.js';
import { Visibility } from './auth/visibility.js';
import { gatewayRequestRouter } from './calls/gateway-server-requests.js';
import { isCatalogPath, serveCatalog } from './catalog/catalog-endpoint.js';
import { GatewayCore } from './gateway-core.js';
import { resolveGatewayLimits } from './gateway-limits.js';
import { buildGatewayServer } from './gateway-mcp-server.js';
import { DEFAULT_MAX_BODY_BYTES, type GatewayOptions, hubOf } from './gateway-options.js';
import { gatewayFront } from './http/gateway-front.js';
import { assertBindAllowed, isLoopbackHost, loopbackHostnames } from './http/loopback.js';
import { mcpRoutes } from './http/mcp-routes.js';
import { PrincipalQuota } from './http/principal-quota.js';
import { makeSessionRoom } from './http/session-room.js';
import { upstreamsGate } from './http/upstreams-ready.js';
import { GatewayProfile, type ProfileParts } from './profiles/gateway-profile.js';
import { profileFor } from './profiles/profile-for-caller.js';
import {
  type DefaultProfileOverrides,
  defaultProfileSettings,
  type ProfileChanges,
  reconfigureProfiles,
} from './profiles/reconfigure-profiles.js';
import { servedProfiles } from './profiles/server-profiles.js';
import { adoptSubscription } from './resources/adopted-subscription.js';
import { routerResourceUris } from './resources/router-resource-uris.js';
import { observeStdioListens } from './resources/stdio-listen-observer.js';
import { BatchedStdioServerTransport } from './sessions/batched-stdio-server-transport.js';
import { ClientArrivals } from './sessions/client-arrivals.js';
import { createSession, type DownstreamSession } from './sessions/downstream-session.js';
import { Era2025Sessions } from './sessions/era-2025-sessions.js';
import { MemoryEventStores } from './sessions/memory-event-stores.js';
import { SseSessions, sseRoute } from './sessions/sse-endpoint.js';
import { MetricsEndpoint } from './status/metrics-endpoint.js';
import { healthJson, statusPageResponse } from './status/status-page.js';

export { DEFAULT_MAX_BODY_BYTES };

/** How long a call whose response stream dropped waits for the client to resume it. */
export const DEFAULT_RESUME_GRACE_MS = 15_000;

/** How long an idle client connection is kept open (Node's default is 5 s). */
const KEEP_ALIVE_MS = 60_000;

/** Where {@link Gateway.listen} listens. */
export interface ListenOptions {
  /** Default `127.0.0.1`. Any non-loopback address needs a token. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
}

/** A running gateway: an MCP server over the registry, both protocol eras. */
export interface Gateway extends AsyncDisposable {
  /**
   * The web-standard face: serves `/mcp`, `/mcp/<profile>`, the 2024-11-05 HTTP+SSE transport
   * (`GET /sse`, `/sse/<profile>`, `POST /messages`), `/healthz` and `/`.
   */
  fetch(request: Request): Promise<Response>;
  /** Serves {@link fetch} over `node:http`; resolves with the URL of `/mcp`. */
  listen(options?: ListenOptions): Promise<{ url: string; host: string; port: number }>;
  /** Serves the default profile over this process's stdin/stdout (or `transport`), either era. */
  serveStdio(options?: { transport?: Transport; profile?: string }): void;
  /** Answers calls in flight with an error, ends every session and stops listening. Idempotent. */
  close(): Promise<void>;
  /**
   * Holds tool `list_changed` until the returned release: a batch of changes (a configuration
   * reloaded) is then one notification per client whose tool list changed, none for the others.
   */
  holdChanges(): () => void;
  /**
   * Applies a reloaded configuration's profiles and router settings from the next request on
   * (`overrides`: what the host sets over `gateway` for the default profile, as at start) and
   * announces the tool lists that changed: see reconfigure-profiles.ts.
   */
  reconfigure(config: McpToolsConfig, overrides?: DefaultProfileOverrides): Promise<ProfileChanges>;
  /** Cluster mode: tells the other replicas this one reloaded (they reload their own files). A no-op otherwise. */
  announceReload(): void;
  /** The downstream calls this process holds: running, and parked until a 2026-07-28 client retries. */
  calls(): { running: number; parked: number };
}

/**
 * Serves everything in `registry` (native, plugin and MCP tools, or the router tools) as one
 * MCP server, to 2026-07-28 clients (stateless, `server/discover`, `subscriptions/listen`,
 * `input_required`) and 2025-era clients (`initialize`, `Mcp-Session-Id`, the GET stream,
 * `DELETE`) on the same URL, over one shared connection per upstream server. The upstreams'
 * sampling, elicitation and roots requests go to the downstream client whose call caused them
 * (handlers given to `loadMcpServers` answer first).
 *
 * @example
 * const registry = new ToolRegistry();
 * const hub = await loadMcpServers(config, registry);
 * const gateway = createGateway({ registry, hub, config });
 * const { url } = await gateway.listen({ port: 8808 });
 */
export function createGateway(options: GatewayOptions): Gateway {
  const hub = hubOf(options);
  const gatewayConfig = options.config?.gateway ?? {};
  const serverInfo: Implementation = options.serverInfo ?? { name: 'mcptools', version: '0.1.0' };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? (() => {});
  // Requests that need the upstreams wait for the first connect round; initialize does not.
  const upstreams = upstreamsGate(options.ready, options.listWaitMs ?? gatewayConfig.listWaitMs);
  // Not ready while the first connect round runs; after it, never for an upstream's sake.
  const readyz = () =>
    upstreams.roundOver()
      ? readiness(core.closing, cluster)
      : Response.json(
          { ready: false, reason: 'servers are connecting' },
          { status: 503, headers: { 'cache-control': 'no-store', 'retry-after': '1' } },
        );
  const arrivals = new ClientArrivals(log);
  // Callers are told apart only by named tokens or OAuth; otherwise every one is one principal.
  const limits = resolveGatewayLimits(
    {
      ...gatewayConfig.limits,
      ...(options.limits ?? {}),
      ...(options.maxSessions === undefined ? {} : { sessions: options.maxSessions }),
    },
    Object.keys(gatewayConfig.tokens ?? {}).length > 0 || (options.auth ?? gatewayConfig.auth) !== undefined,
  );
  const maxSessions = limits.sessions;
  // Cluster mode (off by default): checked now, joined before the first request is served.
  const clusterSettings = options.cluster ? checkClusterOptions(options.cluster) : undefined;
  let cluster: ClusterNode | undefined;
  let joining: Promise<ClusterNode> | undefined;
  let services: ReplicaServices | undefined;
  const joinCluster = (settings: NonNullable<typeof clusterSettings>) =>
    (joining ??= ClusterNode.start(settings, log).then(async (node) => {
      // A relayed round's first retry is first in the whole cluster, not once per replica.
      core.relayContinuations.shareWith(sharedRelayRounds(node.redis, node.keys));
      services = await startReplicaServices(node, { ...options, hub, log });
      unsubscribers.push(() => services?.stop());
      // A sign-in's redirect that reaches another replica is completed by the one holding its flow.
      if (browser !== undefined) {
        const relayed = await relaySignIns(
          node.redis,
          node.keys,
          node.settings.replicaId,
          node.seal,
          (params, principal) => callerUpstreams?.settleFor(params, principal),
        );
        signInRelay = relayed.relay;
        unsubscribers.push(relayed.stop);
      }
      cluster = node;
      return node;
    }));
  const membership =
    clusterSettings === undefined
      ? undefined
      : { node: () => cluster, join: () => joinCluster(clusterSettings) };
  // In a cluster, the default store is Redis (a stream resumes on whichever replica holds the session).
  const ownEventStores =
    options.eventStore === undefined && !clusterSettings
      ? new MemoryEventStores({
          maxTotalBytes: limits.eventBytes,
          maxBytesPerPrincipal: limits.eventBytesPerPrincipal,
          ttlMs: limits.eventTtlMs,
        })
      : undefined;
  const eventStores =
    options.eventStore === false
      ? undefined
      : (options.eventStore ?? ownEventStores ?? clusterEventStores(() => cluster));
  const resumeGraceMs = options.resumeGraceMs ?? DEFAULT_RESUME_GRACE_MS;
  const core = new GatewayCore(hub, {
    separator: options.config?.namespace?.separator ?? '__',
    inputTimeoutMs: options.inputTimeoutMs ?? 300_000,
    unlinkedParkMs: limits.unlinkedParkMs,
    parkedCalls: { total: limits.parkedCalls, perPrincipal: limits.parkedCallsPerPrincipal },
    parkedScriptBytes: {
      total: limits.parkedScriptBytes,
      perPrincipal: limits.parkedScriptBytesPerPrincipal,
    },
    scriptTasks: {
      total: limits.scriptTasks,
      perPrincipal: limits.scriptTasksPerPrincipal,
      ttlMs: limits.scriptTaskTtlMs,
    },
    log,
    // In a cluster the state is sealed with the cluster key and names the cluster's replica id.
    requestStateKey: options.requestStateKey ?? clusterSettings?.key,
    replicaId: options.replicaId ?? clusterSettings?.replicaId,
    perCaller: (server) => {
      const entry = options.config?.servers?.[server];
      return entry !== undefined && usesCallerCredentials(entry);
    },
  });
  /** What a request's wait for its own servers reads (only while the first connect round runs). */
  const waitScope = () => ({
    hub,
    separator: core.separator,
    round: options.ready ?? Promise.resolve(),
  });
  const visibility = new Visibility(gatewayConfig.access);
  const parts: ProfileParts = {
    registry: options.registry,
    hub,
    config: options.config,
    context: options.context ?? {},
    // A call that names no caller is nobody's: not the owner's.
    senderIsOwner: (caller) => caller?.owner ?? false,
    visibility,
    resourceUris: (allows) => routerResourceUris(core.resources, hub, allows),
    log,
  };
  core.profiles.set('', new GatewayProfile('', defaultProfileSettings(gatewayConfig, options), parts));
  for (const [name, profile] of Object.entries(servedProfiles(options.config, options.profiles))) {
    core.profiles.set(name, new GatewayProfile(name, profile, parts));
  }
  /**
   * The profile `/mcp` or `/mcp/<name>` serves `who` (see `profileFor`); a server's own endpoint
   * (`gateway.serverEndpoints`) only to a caller who may see that server, else it is not there.
   */
  const profileOf = (name: string | undefined, who: RequestPrincipal): GatewayProfile | undefined => {
    const profile = profileFor(core.profiles, name, who);
    if (
      profile?.endpointOf !== undefined &&
      !visibility.seesServer({ owner: who.owner, caller: who }, profile.endpointOf)
    )
      return undefined;
    return profile;
  };

  // The first listing of every profile: the baseline later changes are announced against.
  core.toolsChanged();

  // Other replicas reach this one at its advertised host.
  const allowedHosts = [
    ...(options.allowedHosts ?? []),
    ...(clusterSettings ? [clusterSettings.advertiseUrl.hostname] : []),
  ];
  const startedAt = Date.now();
  /** When the profiles were last reconfigured (a reload): the registry records' `updatedAt`. */
  let profilesChangedAt = startedAt;
  const serverFor = (profile: GatewayProfile, session: DownstreamSession) =>
    buildGatewayServer(core, profile, session, serverInfo);
  const era2025Sessions: Era2025Sessions = new Era2025Sessions({
    core,
    serverFor,
    maxBodyBytes,
    eventStores,
    resumeGraceMs,
    arrivals,
    log,
    cluster: () => cluster,
    makeRoom: (principal) => makeRoom(principal),
    adoptSubscription: (profile, session, named) => adoptSubscription(core, profile, session, named),
    idleMs: limits.sessionIdleMs,
  });
  const listenStreams = new PrincipalQuota(
    { total: limits.listenStreams, perPrincipal: limits.listenStreamsPerPrincipal },
    {
      total: 'listen_streams',
      perPrincipal: 'listen_streams_per_principal',
      what: 'subscriptions/listen streams',
    },
  );
  const sseSessions = new SseSessions(core, serverFor);
  const era2026Handlers = new Map<GatewayProfile, McpHttpHandler>();
  const stdioHandles: { close(): Promise<void> }[] = [];
  let httpServer: HttpServer | undefined;
  let guard: HttpGuardSettings = {
    ...frontDoor(options),
    allowedHostnames: [...loopbackHostnames(), ...allowedHosts],
    maxBodyBytes,
  };
  let closing: Promise<void> | undefined;
  const metricsEndpoint =
    options.metrics === undefined
      ? undefined
      : new MetricsEndpoint({
          scrape: options.metrics,
          ...(options.metricsAccess === undefined ? {} : { access: options.metricsAccess }),
          ...(options.scrapeToken === undefined ? {} : { scrapeToken: options.scrapeToken }),
        });
  // Upstreams that take each caller's own credentials; sign-ins return to `/oauth/callback` here.
  let listenUrl: string | undefined;
  const publicBase = () => guard.oauth?.publicOrigin() ?? clusterSettings?.advertiseUrl.origin ?? listenUrl;
  // With `gateway.auth.login`: browsers log in at the front door's issuer (sign-in links, the owner's page).
  let signInRelay: SignInRelay | undefined;
  const browser = gatewayBrowserLogin(guard.oauth?.config, {
    // In a cluster every replica opens what another sealed; alone, the state key or a random one.
    key: clusterSettings?.key ?? options.requestStateKey,
    cluster: clusterSettings === undefined ? undefined : () => joinCluster(clusterSettings),
    publicOrigin: () => guard.oauth?.publicOrigin() ?? clusterSettings?.advertiseUrl.origin,
    settleFor: (params, principal) => callerUpstreams?.settleFor(params, principal) ?? 'unknown',
    relay: () => signInRelay,
    pins: () => hub.pins,
    log,
  });
  const callerUpstreams = serveCallerUpstreams(
    hub,
    options.config,
    guard.oauth,
    publicBase,
    log,
    // Whose a gateway token is, for the page that finishes a caller's upstream sign-in.
    async (token) => {
      const matched = guard.tokens?.match(token);
      if (matched !== undefined) return matched.principal;
      const base = guard.oauth?.publicOrigin() ?? listenUrl ?? 'http://127.0.0.1/';
      const answer = await guard.oauth?.authenticate(`Bearer ${token}`, new URL('/mcp', base).href);
      return answer === undefined || answer instanceof Response ? undefined : answer.principal;
    },
    browser === undefined
      ? undefined
      : (authorizationUrl, owner) => {
          const base = publicBase();
          if (base === undefined)
            throw new Error('the gateway does not know its own URL yet: per-user sign-in needs it to listen');
          return browser.link(authorizationUrl, owner, base);
        },
  );

  // Upstream sampling, elicitation and roots requests go to the downstream client whose call
  // caused them; a hub that cannot take a router answers them itself, and the log says so.
  const stopRouting = hub.routeServerRequests?.(gatewayRequestRouter());
  if (stopRouting === undefined)
    log(
      "this hub takes no server-request routing (not loadMcpServers' own, or loaded with serverRequests: 'configured'): upstream sampling, elicitation and roots requests are answered by the hub's own handlers, never by the gateway's clients",
    );
  const unsubscribers = [
    ...(stopRouting === undefined ? [] : [stopRouting]),
    observeGatewaySessions(function* () {
      for (const session of core.sessions) yield { era: session.era };
    }),
    options.registry.onChange(() => core.toolsChanged()),
    // Fired on every (re)connect and list_changed, even when no name changed (schemas may have).
    // A re-list another replica asked for is announced only where this replica's list differs.
    hub.on('toolsChanged', (server) => core.toolsChanged(services?.relisting(server) ? undefined : server)),
    hub.on('notification', (server, notification) => core.upstreamNotification(server, notification)),
    core.followUpstreamStates(hub),
  ];

  const era2026Handler = (profile: GatewayProfile): McpHttpHandler => {
    let handler = era2026Handlers.get(profile);
    if (handler === undefined) {
      handler = createMcpHandler(
        (context) => {
          const principal = context.authInfo?.clientId ?? 'anonymous';
          const owner = context.authInfo?.scopes.includes('owner') ?? false;
          // The SDK checked `Mcp-Method` against the body before asking for a server (a request
          // without it is refused), so the server registers that method's handler alone.
          return buildGatewayServer(
            core,
            profile,
            createSession(randomUUID(), '2026-07-28', owner, principal, authCaller(context.authInfo)),
            serverInfo,
            context.requestInfo?.headers.get('mcp-method')?.trim(),
          );
        },
        {
          legacy: 'reject',
          maxRequestBodySize: maxBodyBytes,
          onerror: (error) => log(`http: ${error.message}`),
        },
      );
      era2026Handlers.set(profile, handler);
      core.era2026Handlers.set(handler, profile);
    }
    return handler;
  };

  /** Room for one more 2025-era session of `principal`, or the refusal (see http/session-room.ts). */
  const makeRoom = (principal: string): Promise<Response | undefined> =>
    makeSessionRoom(
      principal,
      [era2025Sessions, sseSessions],
      { sessions: maxSessions, sessionsPerPrincipal: limits.sessionsPerPrincipal },
      log,
    );

  const { mcp, sse } = mcpRoutes({
    core,
    maxBodyBytes,
    upstreams,
    waitScope,
    era2025Sessions,
    sseSessions,
    listenStreams,
    arrivals,
    cluster: () => cluster,
    era2026Handler,
    profileOf,
    makeRoom,
  });

  /** The one path of every HTTP request, whichever face it came by (see http/gateway-front.ts). */
  const front = gatewayFront({
    guard: () => guard,
    readyz,
    browser,
    callerUpstreams,
    metrics: metricsEndpoint,
    membership,
    maxBodyBytes,
    route: (request, pathname, who, body, forwarded) => route(request, pathname, who, body, forwarded),
    log,
  });

  const fetch = async (request: Request): Promise<Response> => {
    const exchange = new WebExchange(request);
    return exchange.answer(await front(exchange));
  };

  /** Serves a request that passed the front door; `parsedBody`: the body of a `POST` to an MCP endpoint. */
  const route = async (
    request: Request,
    pathname: string,
    checked: RequestPrincipal,
    parsedBody: unknown,
    forwarded: ForwardedCaller | undefined,
  ): Promise<Response> => {
    // The status a caller is shown names only the servers it may see.
    const statuses = () =>
      hub
        .status()
        .filter((status) => visibility.seesServer({ owner: checked.owner, caller: checked }, status.name));
    if (pathname === '/healthz' && request.method === 'GET')
      return Response.json(healthJson(statuses(), startedAt));
    if (pathname === '/' && request.method === 'GET') {
      // Only the endpoints that serve this caller: a `who`-restricted profile is not named to others.
      const endpoints = [...core.profiles.keys()]
        .filter((name) => profileOf(name === '' ? undefined : name, checked) !== undefined)
        .map((name) => (name === '' ? '/mcp' : `/mcp/${name}`));
      // What pins hold back (and the approve command) is for the owner, of the servers it sees.
      const seen = new Set(statuses().map((status) => status.name));
      const quarantined = checked.owner
        ? (hub.pins?.quarantined().filter((held) => seen.has(held.server)) ?? [])
        : [];
      // A browser session of the owner gets approve buttons (a form with the session's CSRF token).
      const session = request.headers.get('authorization') === null ? browser?.sessionOf(request) : undefined;
      const csrf =
        session?.owner === true && session.principal === checked.principal && quarantined.length > 0
          ? browser?.csrfToken(session)
          : undefined;
      return statusPageResponse(
        statuses(),
        startedAt,
        endpoints,
        options.notices?.() ?? [],
        quarantined,
        csrf,
      );
    }
    if (pathname === '/metrics' && request.method === 'GET' && metricsEndpoint)
      return metricsEndpoint.serve(checked);
    if (isCatalogPath(pathname)) return catalog(request, checked);
    const legacySse = sseRoute(request.method, pathname, request.headers);
    if (legacySse) return sse(legacySse, request, checked, parsedBody);
    const match = /^\/mcp(?:\/([A-Za-z0-9_-]{1,64}))?\/?$/.exec(pathname);
    const profile = match ? profileOf(match[1], checked) : undefined;
    if (profile === undefined) return new Response('Not Found\n', { status: 404 });
    return mcp(profile, request, checked, parsedBody, forwarded);
  };

  /**
   * The gateway as a registry its callers' hosts browse: one record per profile this caller may
   * use (what `profileFor` would serve it), as the caller sees that profile.
   */
  const catalog = (request: Request, checked: RequestPrincipal): Promise<Response> => {
    const reachable = new Set<GatewayProfile>();
    for (const name of core.profiles.keys()) {
      if (retiredProfiles.has(name)) continue;
      const profile = profileOf(name === '' ? undefined : name, checked);
      if (profile !== undefined && !retiredProfiles.has(profile.name)) reachable.add(profile);
    }
    return serveCatalog(request, {
      profiles: [...reachable],
      view: {
        origin:
          guard.oauth?.publicOrigin() ?? clusterSettings?.advertiseUrl.origin ?? new URL(request.url).origin,
        caller: checked,
        version: serverInfo.version,
        publishedAt: new Date(startedAt),
        updatedAt: new Date(profilesChangedAt),
        bearer: guard.tokens === undefined ? 'none' : guard.oauth === undefined ? 'required' : 'optional',
        hub,
      },
    });
  };

  const listen = async (listenOptions: ListenOptions = {}) => {
    if (httpServer) throw new McpToolsError('INVALID_ARGUMENTS', 'the gateway is already listening');
    const host = listenOptions.host ?? '127.0.0.1';
    // Joined before listening: cluster mode with an unreachable Redis fails here, clearly.
    if (clusterSettings !== undefined) await joinCluster(clusterSettings);
    const loopback = isLoopbackHost(host);
    assertBindAllowed(host, guard.tokens !== undefined || guard.oauth !== undefined);
    const wildcard = host === '0.0.0.0' || host === '::';
    guard = {
      ...guard,
      allowedHostnames: wildcard
        ? options.allowedHosts && allowedHosts
        : [
            ...new Set([
              ...(loopback ? loopbackHostnames() : []),
              host.includes(':') ? `[${host}]` : host,
              ...allowedHosts,
            ]),
          ],
    };
    const onerror = (error: Error) => log(`http: ${error.message}`);
    // The Node face only reads and writes: the routing is the `fetch` face's own (`front`).
    const server = createServer((req, res) => {
      serveNodeExchange(req, res, front, onerror).catch((error: unknown) => {
        log(`http: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    // MCP clients keep one connection and call in bursts: Node's 5 s keep-alive would make them
    // reconnect after every pause (and race a reused socket against its close).
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = Math.max(server.headersTimeout, KEEP_ALIVE_MS + 1000);
    httpServer = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listenOptions.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${shown}:${address.port}/mcp`;
    listenUrl = url;
    log(`listening on ${url}`);
    return { url, host: address.address, port: address.port };
  };

  const serveStdio = (stdioOptions: { transport?: Transport; profile?: string } = {}) => {
    const profile = core.profiles.get(stdioOptions.profile ?? '');
    if (profile === undefined)
      throw new McpToolsError('INVALID_ARGUMENTS', `unknown profile "${stdioOptions.profile}"`);
    const transport = stdioOptions.transport ?? new BatchedStdioServerTransport();
    let current: DownstreamSession | undefined;
    // A 2026-07-28 listener of resource updates gets them subscribed upstream on its behalf.
    observeStdioListens(transport, core, profile, () => current);
    upstreams.hold(transport);
    const handle = sdkServeStdio(
      (context) => {
        // Over stdio the client started this process: it is the owner.
        const session = createSession(randomUUID(), eraFromSdk(context.era), true, 'stdio');
        const server = serverFor(profile, session);
        core.sessions.add(session);
        current = session;
        server.onclose = () => core.endSession(session);
        return server;
      },
      { transport, onerror: (error) => log(`stdio: ${error.message}`) },
    );
    stdioHandles.push(handle);
  };

  const close = () => {
    closing ??= (async () => {
      // A cluster still joining is joined (or failed) before it can be left.
      if (joining) await joining.catch(() => undefined);
      if (cluster) await drainCluster(cluster, core, log);
      core.shutDown();
      // Requests held for the first connect round go in now, to be refused like the rest.
      upstreams.release();
      // Give the handlers of cancelled calls a moment to answer with their error.
      const until = Date.now() + 1000;
      while (core.calls.size > 0 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 10));
      // …and their error responses a moment to be written before the transports close.
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const unsubscribe of unsubscribers) unsubscribe();
      await Promise.allSettled([
        era2025Sessions.close(),
        sseSessions.close(),
        ...[...era2026Handlers.values()].map((handler) => handler.close()),
        ...stdioHandles.map((handle) => handle.close()),
      ]);
      for (const session of [...core.sessions]) core.endSession(session);
      ownEventStores?.close();
      if (httpServer) {
        const server = httpServer;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
      await callerUpstreams?.close();
      await cluster?.close();
    })();
    return closing;
  };

  const holdChanges = () => core.holdToolChanges();
  const retiredProfiles = new Set<string>();
  const reconfigure = async (config: McpToolsConfig, overrides: DefaultProfileOverrides = {}) => {
    const changes = reconfigureProfiles(core.profiles, parts, config, overrides, retiredProfiles);
    profilesChangedAt = Date.now();
    core.toolsChanged();
    return changes;
  };
  const calls = () => ({ running: core.calls.size - core.parkedCount, parked: core.parkedCount });
  return {
    fetch,
    listen,
    serveStdio,
    close,
    holdChanges,
    reconfigure,
    announceReload: () => services?.reloads.announce(),
    calls,
    [Symbol.asyncDispose]: close,
  };
}
