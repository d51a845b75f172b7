import {
  hostHeaderValidationResponse,
  originValidationResponse,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { CHAIN_HEADER, incomingLoop } from '../../chain/gateway-chain.js';
import type { HeaderSource } from '../../http/header-source.js';
import type { Caller } from '../../tool/call-context.js';
import type { GatewayOAuth } from './gateway-oauth.js';
import type { StaticTokens } from './static-tokens.js';

/** What {@link guardRequest} checks a request against. */
export interface HttpGuardSettings {
  /** The static bearer tokens (the front door's pair and named tokens); when set, every request must present one. */
  tokens?: StaticTokens;
  /** The gateway as an OAuth resource server: a bearer token no static token matches is verified by it. */
  oauth?: GatewayOAuth;
  /** Host names accepted in `Host` and `Origin`; `undefined` accepts any (a wildcard bind). */
  allowedHostnames?: string[];
  /** Bodies above this many bytes (by `Content-Length`) are refused before they are read. */
  maxBodyBytes: number;
}

/** The answer to a request that would close a loop of gateways: 508 Loop Detected, the reason as a JSON-RPC error. */
export function loopRefusal(reason: string): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: reason }, id: null },
    { status: 508 },
  );
}

/** Who a request that passed comes from: the one {@link Caller} type. */
export type RequestPrincipal = Caller;

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  });
}

/** Host header values found valid, per allowed list: every request of a client carries the same one. */
const acceptedHosts = new WeakMap<string[], Set<string>>();
/** At most this many remembered per list (a client could send many different ones). */
const MAX_ACCEPTED_HOSTS = 64;

/** The SDK's Host check (it parses the value as a URL), remembered for values it accepted. */
function hostAccepted(host: string | null, allowed: string[]): boolean {
  if (host === null) return validateHostHeader(host, allowed).ok;
  let accepted = acceptedHosts.get(allowed);
  if (accepted?.has(host)) return true;
  if (!validateHostHeader(host, allowed).ok) return false;
  if (accepted === undefined) {
    accepted = new Set();
    acceptedHosts.set(allowed, accepted);
  }
  if (accepted.size < MAX_ACCEPTED_HOSTS) accepted.add(host);
  return true;
}

/** Who a request comes from when no token is configured (shared: never changed). */
const ANONYMOUS: RequestPrincipal = Object.freeze({ principal: 'anonymous', owner: false, via: 'anonymous' });

/** A bearer token no static token matched, left for OAuth to verify. */
interface Unverified {
  bearer: string | null;
}

function unauthorized(request: HeaderSource, settings: HttpGuardSettings): Response {
  if (settings.oauth !== undefined) return settings.oauth.unauthorized(requestUrlOf(request));
  return plain(401, 'Unauthorized: send Authorization: Bearer <token>', {
    'www-authenticate': 'Bearer realm="mcptools"',
  });
}

/** The URL a request was sent to, as far as the headers tell (for the OAuth challenge's metadata URL). */
function requestUrlOf(request: HeaderSource): string {
  if (request instanceof Request) return request.url;
  const base = `http://${request.headers.get('host') ?? '127.0.0.1'}/`;
  try {
    return new URL(request.url ?? '/', base).href;
  } catch {
    return base;
  }
}

/** The checks of {@link guardRequest}, with a bearer token left unverified when OAuth may accept it. */
function guardHeaders(
  request: HeaderSource,
  settings: HttpGuardSettings,
): Response | RequestPrincipal | Unverified {
  // A request that already came through this gateway (or one behind it) is a loop: 508, no session.
  const loop = incomingLoop(request.headers.get(CHAIN_HEADER));
  if (loop !== undefined) return loopRefusal(loop);
  const allowed = settings.allowedHostnames;
  if (allowed !== undefined) {
    const host = request.headers.get('host');
    const origin = request.headers.get('origin');
    if (!hostAccepted(host, allowed) || !validateOriginHeader(origin, allowed).ok) {
      // The refusal is the SDK's own (403, its JSON-RPC error body), made from the two headers.
      const probe = new Request('http://gateway.invalid/', {
        headers: { ...(host === null ? {} : { host }), ...(origin === null ? {} : { origin }) },
      });
      const rejected =
        hostHeaderValidationResponse(probe, allowed) ?? originValidationResponse(probe, allowed);
      if (rejected) return rejected;
    }
  }
  let principal: RequestPrincipal | Unverified = ANONYMOUS;
  const { tokens } = settings;
  if (tokens !== undefined || settings.oauth !== undefined) {
    const header = request.headers.get('authorization');
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    const matched = presented === undefined ? undefined : tokens?.match(presented);
    if (matched !== undefined) principal = matched;
    else if (settings.oauth !== undefined) principal = { bearer: header };
    else return unauthorized(request, settings);
  }
  const length = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(length) && length > settings.maxBodyBytes) {
    return plain(413, `Payload Too Large: the limit is ${settings.maxBodyBytes} bytes`);
  }
  return principal;
}

/**
 * The gateway's front door, before anything reads the body: a request whose gateway chain
 * shows a loop gets 508 (src/mcp/gateway-chain.ts); `Host` and `Origin` must name the
 * bound address (DNS rebinding), a configured token must be presented as
 * `Authorization: Bearer <token>` (401 otherwise, compared in constant time), and a declared
 * body over the cap gets 413. Synchronous: an OAuth access token is not verified here (such a
 * request gets 401); use {@link authenticateRequest} where OAuth is configured.
 */
export function guardRequest(
  request: HeaderSource,
  settings: HttpGuardSettings,
): Response | RequestPrincipal {
  const checked = guardHeaders(request, settings);
  if (checked instanceof Response || 'principal' in checked) return checked;
  return unauthorized(request, settings);
}

/**
 * The whole front door, for every HTTP face of the gateway (Streamable HTTP, SSE): what
 * {@link guardRequest} checks, then an OAuth access token verified when `settings.oauth` is set.
 * Synchronous when no token needs verifying (loopback without tokens, a static token), a
 * promise otherwise. Resolves with the caller, or with the refusal to send as it is (401 with
 * the `resource_metadata` challenge, 403 `insufficient_scope`, 403 for Host/Origin, 413).
 */
export function authenticateRequest(
  request: HeaderSource,
  settings: HttpGuardSettings,
): Response | RequestPrincipal | Promise<Response | RequestPrincipal> {
  const checked = guardHeaders(request, settings);
  if (checked instanceof Response || 'principal' in checked) return checked;
  return settings.oauth!.authenticate(checked.bearer, requestUrlOf(request));
}
