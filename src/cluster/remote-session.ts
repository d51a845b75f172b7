import { jsonRpcError } from '../http/json-rpc-error-response.js';
import { discardBody } from '../http/node-body.js';
import { echoableId } from '../http/node-exchange.js';
import type { Caller } from '../tool/call-context.js';
import type { ClusterNode } from './cluster-node.js';
import { STOPPED_BEFORE_ANSWER } from './forward-request.js';
import type { SessionRecord } from './session-directory.js';

/** How a request for a 2025 session this replica does not hold is answered. */
export interface RemoteSessionRequest {
  request: Request;
  /** The caller, as this replica's front door verified it (signed into what is forwarded). */
  who: Caller;
  principal: string;
  body: unknown;
  sessionId: string;
  /** The profile the request's path names (`''`: the default one). */
  profile: string;
  /** Rebuilds the session here from its record (adoption); resolves once it serves requests. */
  adopt(record: SessionRecord): Promise<void>;
  /** Serves the request from the session held here (after adoption). */
  serveLocal(): Promise<Response>;
}

/** The answer to a request the owning replica received but died before answering (never re-run elsewhere). */
const stoppedBeforeAnswer = (id: string | number) =>
  Response.json({ jsonrpc: '2.0', id, error: { code: -32603, message: STOPPED_BEFORE_ANSWER } });

const notFound = () => jsonRpcError(404, -32001, 'Session not found');
const unavailable = (why: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: why }, id: null }), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
  });

/** Adoptions in progress on this replica, by session: two requests at once adopt once. */
const adopting = new WeakMap<ClusterNode, Map<string, Promise<boolean>>>();

/**
 * A request for a 2025 session held by no transport here: forwarded to the live replica that
 * owns it, or the session is adopted (its owner died or handed it over) and served here. A
 * session id unknown to the cluster, or another principal's, is `404 Session not found`; when
 * Redis is away, `503` (the client retries).
 */
export async function serveRemoteSession(node: ClusterNode, what: RemoteSessionRequest): Promise<Response> {
  // A dead owner's heartbeat lapses within three beats: a request that found it refusing
  // connections waits that long for the session to become adoptable, rather than failing.
  const waitUntil = Date.now() + node.settings.heartbeatMs * 4;
  try {
    const cacheKey = `${what.principal}\n${what.sessionId}`;
    for (let attempt = 0; attempt < 3 || Date.now() < waitUntil; attempt++) {
      // Where the session was last found: no Redis round trip while its owner keeps it.
      const known = attempt === 0 ? node.owners.get(cacheKey) : undefined;
      const record = known ? undefined : await node.sessions.get(what.principal, what.sessionId);
      if (!known && (record === undefined || record.profile !== what.profile)) return notFound();
      const ownerUrl =
        known?.profile === what.profile
          ? known.url
          : record === undefined || record.owner === '' || record.owner === node.replicaId
            ? undefined
            : await node.registry.lookup(record.owner);
      if (ownerUrl !== undefined) {
        let response: Response;
        try {
          response = await node.forward(what.request, ownerUrl, what.who, what.body);
        } catch (error) {
          node.owners.delete(cacheKey);
          // Refused: the request never reached the owner (it died); anything else may have run there.
          const refused = (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
          // A request that reached the owner before it died is answered, not retried elsewhere.
          const id = echoableId(what.body);
          if (!refused && id !== null) return stoppedBeforeAnswer(id);
          if (!refused || Date.now() >= waitUntil)
            return unavailable('the replica holding this session is not answering; retry shortly');
          await new Promise((resolve) => setTimeout(resolve, node.settings.heartbeatMs / 2));
          continue;
        }
        // 421: the owner no longer holds it (handed over since): look again.
        if (response.status !== 421) {
          node.owners.remember(cacheKey, { url: ownerUrl, profile: what.profile });
          return response;
        }
        node.owners.delete(cacheKey);
        await discardBody(response);
        continue;
      }
      if (record === undefined) continue;
      if (node.draining) return unavailable('this replica is shutting down; retry');
      if (await adoptOnce(node, record, what)) return what.serveLocal();
    }
    return unavailable('the session is changing hands; retry');
  } catch {
    return unavailable('the cluster store (Redis) is unavailable; retry shortly');
  }
}

async function adoptOnce(
  node: ClusterNode,
  record: SessionRecord,
  what: RemoteSessionRequest,
): Promise<boolean> {
  let running = adopting.get(node);
  if (running === undefined) {
    running = new Map();
    adopting.set(node, running);
  }
  const pending = running.get(record.id);
  if (pending) return pending;
  const attempt = (async () => {
    // A record this replica owns but holds no transport for (it restarted with the same id): rebuild it.
    if (record.owner !== node.replicaId && !(await node.sessions.claim(record))) return false;
    await what.adopt(record);
    return true;
  })().finally(() => running.delete(record.id));
  running.set(record.id, attempt);
  return attempt;
}
