import { REACH_HEADER, reachHeaderValue } from '../../chain/gateway-chain.js';
import { FORWARD_HEADER, type ForwardedCaller } from '../../cluster/forward-signature.js';
import type { HeaderSource } from '../../http/header-source.js';
import type { HttpExchange } from '../../http/http-exchange.js';
import { echoableId } from '../../http/node-exchange.js';
import type { BrowserRoutes } from '../auth/browser-routes.js';
import type { CallerUpstreams } from '../auth/caller-upstreams.js';
import {
  authenticateRequest,
  guardRequest,
  type HttpGuardSettings,
  type RequestPrincipal,
} from '../auth/http-guard.js';
import type { MetricsEndpoint } from '../status/metrics-endpoint.js';
import { type ClusterMembership, forwardedCaller, joinBeforeServing } from './forwarded-caller.js';
import { parseRequestBody, tooLarge } from './request-body.js';

/** The largest form the page finishing an upstream sign-in posts (a code, a state, a token). */
const MAX_CALLBACK_FORM_BYTES = 64 * 1024;

/** What the front of a gateway's HTTP face reads: its door, its public routes, and the route behind them. */
export interface GatewayFrontParts {
  /** The front door's settings, read at each request (`listen` narrows the hosts allowed). */
  guard(): HttpGuardSettings;
  /** The answer to a load balancer's `GET /readyz`. */
  readyz(): Response;
  /** The browser pages of `gateway.auth.login`, when configured. */
  browser: BrowserRoutes | undefined;
  /** The return of a caller's upstream sign-in (`/oauth/callback`), when configured. */
  callerUpstreams: CallerUpstreams | undefined;
  /** `/metrics` with its scrape token, when configured. */
  metrics: MetricsEndpoint | undefined;
  /** Cluster mode: the node, and the join a request waits for. */
  membership: ClusterMembership | undefined;
  /** Request bodies above this many bytes get 413. */
  maxBodyBytes: number;
  /**
   * Serves a request that passed the door (status, catalog, the MCP endpoints); `body` is the
   * parsed body of a `POST` to an MCP endpoint, `undefined` for any other request.
   */
  route(
    request: Request,
    pathname: string,
    who: RequestPrincipal,
    body: unknown,
    forwarded: ForwardedCaller | undefined,
  ): Promise<Response>;
  log(line: string): void;
}

/** `request` as a web `Request` carrying `text`, for the browser pages, which read their forms themselves. */
function withBody(request: Request, text: string | undefined): Request {
  const headers = new Headers();
  // The framing described the bytes that came; the new body has its own.
  request.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') headers.append(name, value);
  });
  return new Request(request.url, {
    method: request.method,
    headers,
    ...(text === undefined ? {} : { body: text }),
  });
}

/**
 * The one path every HTTP request to the gateway takes, whichever face it came in by (the web
 * `fetch`, or the Node server, which only reads and writes): the readiness probe, the OAuth
 * metadata, the browser pages and the sign-in callback (none of them takes a token), the scrape
 * token, a forwarded request's signed caller, the status page's browser session, the front door,
 * the cluster join; then the reach header, the body of an MCP request read once (capped and
 * parsed), and the route. The order is this function's alone, so the faces cannot differ.
 */
export function gatewayFront(parts: GatewayFrontParts): (exchange: HttpExchange) => Promise<Response> {
  /** Host and Origin checked as at every door, for the routes a browser uses without a token. */
  const browserGuard = (request: HeaderSource) => {
    const { allowedHostnames } = parts.guard();
    return guardRequest(request, {
      maxBodyBytes: MAX_CALLBACK_FORM_BYTES,
      ...(allowedHostnames === undefined ? {} : { allowedHostnames }),
    });
  };

  const browserPage = async (exchange: HttpExchange, browser: BrowserRoutes): Promise<Response> => {
    const { request } = exchange;
    const door = browserGuard(request);
    if (door instanceof Response) return door;
    const read = request.method === 'POST' ? await exchange.readBody(MAX_CALLBACK_FORM_BYTES) : undefined;
    if (read !== undefined && 'tooLarge' in read) return tooLarge(MAX_CALLBACK_FORM_BYTES);
    return browser.serve(withBody(request, read?.text));
  };

  return async (exchange) => {
    const { request, pathname, target } = exchange;
    const { method } = request;
    const guard = parts.guard();
    // A load balancer's probe carries no token; the answer says nothing but ready or not.
    if (method === 'GET' && pathname === '/readyz') return parts.readyz();
    const metadata = guard.oauth?.metadataResponse(method, pathname);
    if (metadata !== undefined) return metadata;
    if (parts.browser?.handles(method, pathname)) return browserPage(exchange, parts.browser);
    // A browser coming back from signing in to an upstream carries no token of ours.
    const signedIn = parts.callerUpstreams?.callback({
      method,
      url: target,
      form: async () => {
        const read = await exchange.readBody(MAX_CALLBACK_FORM_BYTES);
        return 'text' in read ? read.text : undefined;
      },
    });
    if (signedIn !== undefined) return signedIn;
    const scraped = parts.metrics?.scraperRequest(request, method, target, guard);
    if (scraped !== undefined) return scraped;
    // Every check above and the door read headers only: a refused request never gets buffered.
    const forwarded =
      request.headers.get(FORWARD_HEADER) === null
        ? undefined
        : await forwardedCaller(request, method, target, guard, parts.membership);
    if (forwarded instanceof Response) return forwarded;
    // The status page of a browser session (or the redirect to its login): Host and Origin checked.
    const visitor =
      forwarded === undefined ? parts.browser?.statusPageVisitor(request, method, target) : undefined;
    if (visitor !== undefined) {
      const door = browserGuard(request);
      if (door instanceof Response) return door;
      if (visitor instanceof Response) return visitor;
    }
    const authenticated = visitor ?? forwarded?.who ?? authenticateRequest(request, guard);
    const who = authenticated instanceof Promise ? await authenticated : authenticated;
    if (who instanceof Response) return who;
    const { membership } = parts;
    if (membership !== undefined && membership.node() === undefined) {
      const unavailable = await joinBeforeServing(membership);
      if (unavailable !== undefined) return unavailable;
    }
    // Which gateways are reachable through this one, told to callers that passed the door: a
    // gateway upstream of its caller learns it, and refuses a cycle (src/chain/gateway-chain.ts).
    const reach = reachHeaderValue();
    if (reach !== undefined) exchange.setHeader(REACH_HEADER, reach);
    // The body of a request to an MCP endpoint is read once, here, and handed on parsed: the era
    // check, the session and the SDK read nothing again.
    let body: unknown;
    if (method === 'POST' && (pathname.startsWith('/mcp') || pathname.startsWith('/message'))) {
      const read = await exchange.readBody(parts.maxBodyBytes);
      if ('tooLarge' in read) return tooLarge(parts.maxBodyBytes);
      body = parseRequestBody(read.text);
      if (body instanceof Response) return body;
    }
    try {
      return await parts.route(request, pathname, who, body, forwarded);
    } catch (error) {
      parts.log(`http: ${error instanceof Error ? error.message : String(error)}`);
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: echoableId(body) },
        { status: 500 },
      );
    }
  };
}
