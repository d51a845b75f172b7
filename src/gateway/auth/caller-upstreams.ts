import { CallbackRedirects, type CallerOfToken, OAUTH_CALLBACK_PATH } from '../../auth/callback-redirects.js';
import type { McpToolsConfig } from '../../config/config-types.js';
import type { McpToolHub } from '../../mcp/hub-types.js';
import { usesCallerCredentials } from '../../mcp/principal-connections.js';
import type { GatewayOAuth } from './gateway-oauth.js';

/** What {@link serveCallerUpstreams} set up: the `/oauth/callback` endpoint, and how to stop. */
export interface CallerUpstreams {
  /**
   * The answer to a request for `/oauth/callback` (the redirect's `GET`, and the `POST` of its
   * page with the caller's token, whose form `form` reads), or `undefined` for any other request.
   */
  callback(request: {
    method: string;
    url: string;
    form?: () => Promise<string | undefined>;
  }): Response | Promise<Response> | undefined;
  /** With a browser login: completes the flow `params` names for the browser's proven `principal` (see `CallbackRedirects.settleFor`). */
  settleFor(params: URLSearchParams, principal: string): 'settled' | 'refused' | 'unknown';
  close(): Promise<void>;
}

/**
 * Upstream calls as the caller: when the configuration has servers that take each caller's own
 * credentials (`auth: { type: "oauth", perUser: true }`, `auth: { type: "tokenExchange" }`) and
 * the hub is `loadMcpServers`' own, the hub routes their calls to each principal's own connection
 * (`McpToolHub.servePerCaller`), and sign-ins come back to the gateway's `/oauth/callback`.
 * `baseUrl` is read when a sign-in starts: the gateway's public origin. `callerOf` tells whose a
 * gateway token is: a sign-in completes only for the caller who started it. Stdio callers (the
 * owner) keep the shared connection. `link`, with a browser login at the front door: the
 * link a caller is handed instead of the authorization URL, and the browser routes then own
 * `/oauth/callback` (through `settleFor`). `undefined` when nothing is configured so.
 */
export function serveCallerUpstreams(
  hub: McpToolHub,
  config: McpToolsConfig | undefined,
  oauth: GatewayOAuth | undefined,
  baseUrl: () => string | undefined,
  log: (line: string) => void = () => {},
  callerOf: CallerOfToken = async () => undefined,
  link?: (authorizationUrl: URL, owner: string) => URL,
): CallerUpstreams | undefined {
  const servers = Object.values(config?.servers ?? {}).filter(usesCallerCredentials);
  if (servers.length === 0) return undefined;
  if (hub.servePerCaller === undefined) {
    // Never silently: a wrapped hub cannot route, and these servers then act as shared.
    log(
      'servers with perUser or tokenExchange auth need the hub of loadMcpServers itself: calls stay shared',
    );
    return undefined;
  }
  if (servers.some((server) => server.auth?.type === 'tokenExchange')) oauth?.keepSubjectTokens();
  const redirects = new CallbackRedirects(() => {
    const base = baseUrl();
    if (base === undefined)
      throw new Error('the gateway does not know its own URL yet: per-user sign-in needs it to listen');
    return new URL(OAUTH_CALLBACK_PATH, base).href;
  }, link);
  let stop: () => Promise<void>;
  try {
    stop = hub.servePerCaller({
      redirect: redirects.receiver,
      caller: (context) => {
        const caller = context?.caller;
        // Over stdio the client started this process: the owner, on the shared connection.
        // A request that names no caller (`undefined`) is refused such a server, never shared.
        return caller?.via === 'stdio' ? 'operator' : caller;
      },
      ...(oauth === undefined ? {} : { subjectToken: (caller) => oauth.subjectToken(caller.tokenDigest) }),
    });
  } catch {
    // One hub routes for its first gateway: sign-ins then return to that gateway's callback.
    log(
      "another gateway over this hub already serves its per-caller servers: sign-ins return to that gateway's /oauth/callback",
    );
    return undefined;
  }
  // A caller arriving with a new token may bring the catalog of servers no caller opened yet.
  oauth?.onVerified((who) => hub.warmCaller?.(who));
  return {
    settleFor: (params, principal) => redirects.settleFor(params, principal),
    callback: (request) => {
      const url = new URL(request.url, 'http://gateway.invalid');
      // With a browser login, the browser routes answer the callback (the browser's identity decides).
      if (url.pathname !== OAUTH_CALLBACK_PATH || link !== undefined) return undefined;
      if (request.method === 'GET') return redirects.answer(url);
      if (request.method !== 'POST' || request.form === undefined) return undefined;
      return request
        .form()
        .then((form) =>
          form === undefined
            ? new Response('Payload Too Large\n', { status: 413 })
            : redirects.confirm(new URLSearchParams(form), callerOf),
        );
    },
    close: stop,
  };
}
