import { createHash, timingSafeEqual } from 'node:crypto';
import {
  hostHeaderValidationResponse,
  originValidationResponse,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { CHAIN_HEADER, incomingLoop } from '../mcp/gateway-chain.js';

/** What {@link guardRequest} checks a request against. */
export interface HttpGuardSettings {
  /** The access token; when set, every request must present it (or the owner token). */
  token?: string;
  /** The owner token; presenting it marks the client as the owner. */
  ownerToken?: string;
  /** Host names accepted in `Host` and `Origin`; `undefined` accepts any (a wildcard bind). */
  allowedHostnames?: string[];
  /** Bodies above this many bytes (by `Content-Length`) are refused before they are read. */
  maxBodyBytes: number;
}

/** The headers of a request as {@link guardRequest} reads them: a `Request`'s, or a Node request's read in place. */
export interface HeaderSource {
  readonly headers: { get(name: string): string | null };
}

/** The answer to a request that would close a loop of gateways: 508 Loop Detected, the reason as a JSON-RPC error. */
export function loopRefusal(reason: string): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: reason }, id: null },
    { status: 508 },
  );
}

/** Who a request that passed comes from. */
export interface RequestPrincipal {
  /** A stable id derived from the token presented (never the token), or `anonymous`. */
  principal: string;
  owner: boolean;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Equal in constant time whatever the lengths (both sides are hashed first). */
export function tokensMatch(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

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
const ANONYMOUS: RequestPrincipal = Object.freeze({ principal: 'anonymous', owner: false });

/**
 * The gateway's front door, before anything reads the body: a request whose gateway chain
 * shows a loop gets 508 (src/mcp/gateway-chain.ts); `Host` and `Origin` must name the
 * bound address (DNS rebinding), a configured token must be presented as
 * `Authorization: Bearer <token>` (401 otherwise, compared in constant time), and a declared
 * body over the cap gets 413.
 */
export function guardRequest(
  request: HeaderSource,
  settings: HttpGuardSettings,
): Response | RequestPrincipal {
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
  let principal: RequestPrincipal = ANONYMOUS;
  if (settings.token !== undefined || settings.ownerToken !== undefined) {
    const header = request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const presented = match?.[1];
    // Both comparisons always run, so timing says nothing about which token (if any) matched.
    const isOwner =
      presented !== undefined &&
      settings.ownerToken !== undefined &&
      tokensMatch(presented, settings.ownerToken);
    const isAccess =
      presented !== undefined && settings.token !== undefined && tokensMatch(presented, settings.token);
    if (!isOwner && !isAccess) {
      return plain(401, 'Unauthorized: send Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer realm="mcptools"',
      });
    }
    principal = {
      principal: `token:${digest(presented!).toString('hex').slice(0, 16)}`,
      owner: isOwner || (settings.ownerToken === undefined && isAccess),
    };
  }
  const length = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(length) && length > settings.maxBodyBytes) {
    return plain(413, `Payload Too Large: the limit is ${settings.maxBodyBytes} bytes`);
  }
  return principal;
}
