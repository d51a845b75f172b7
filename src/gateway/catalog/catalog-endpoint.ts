import type { GatewayProfile } from '../profiles/gateway-profile.js';
import { type CatalogRecord, type CatalogView, profileRecord } from './profile-record.js';

/** The page size when a request names none, and the most one page holds. */
const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 100;

/** Whether `pathname` is one of the registry API's (`/v0.1/servers…`). */
export function isCatalogPath(pathname: string): boolean {
  return pathname === '/v0.1/servers' || pathname.startsWith('/v0.1/servers/');
}

/** What the catalog endpoint reads: the profiles that serve the caller, and how to describe them. */
export interface CatalogRequestParts {
  /** The profiles this caller may use (a `who`-restricted or token-bound one only to its own). */
  profiles: readonly GatewayProfile[];
  view: CatalogView;
}

/** The registry API's error body (`{ error }`), never naming more than the request did. */
const failure = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ error }, { status, headers: { 'cache-control': 'no-store', ...headers } });

const answer = (body: unknown) => Response.json(body, { headers: { 'cache-control': 'no-store' } });

/** The opaque cursor after `name` (its UTF-8 as base64url), and back; `undefined` for a forged one. */
const cursorAfter = (name: string) => Buffer.from(name, 'utf8').toString('base64url');
function nameOfCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

/**
 * Serves the read half of the MCP Registry's `v0.1` API over this gateway's endpoints:
 * `GET /v0.1/servers` (`cursor`, `limit`, `search`, `version`, `updated_since`),
 * `/v0.1/servers/{name}/versions` and `/v0.1/servers/{name}/versions/{version|latest}`, one
 * record per profile the caller may use. The caller already passed the front door; what it
 * is shown is what it could reach at `/mcp`.
 */
export async function serveCatalog(request: Request, parts: CatalogRequestParts): Promise<Response> {
  if (request.method !== 'GET') return failure(405, 'this registry is read-only', { allow: 'GET' });
  const url = new URL(request.url);
  const records = await Promise.all(parts.profiles.map((profile) => profileRecord(profile, parts.view)));
  records.sort((a, b) => (a.server.name < b.server.name ? -1 : a.server.name > b.server.name ? 1 : 0));
  if (url.pathname === '/v0.1/servers') return list(records, url.searchParams);
  // The name holds a slash: sent encoded (`%2F`) as the API asks, or bare by a lenient client.
  const match = /^\/v0\.1\/servers\/(.+?)\/versions(?:\/([^/]+))?\/?$/.exec(url.pathname);
  if (match === null) return failure(404, 'Not found');
  let name: string;
  let version: string | undefined;
  try {
    name = decodeURIComponent(match[1] ?? '');
    version = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
  } catch {
    return failure(404, 'Server not found');
  }
  const record = records.find((candidate) => candidate.server.name === name);
  if (record === undefined) return failure(404, 'Server not found');
  if (version === undefined) return answer({ servers: [record], metadata: { count: 1 } });
  // Each record has one version, which is therefore the latest.
  if (version !== 'latest' && version !== record.server.version)
    return failure(404, 'Server version not found');
  return answer(record);
}

function list(records: CatalogRecord[], query: URLSearchParams): Response {
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return failure(400, `limit must be an integer from 1 to ${MAX_LIMIT}`);
  const since = query.get('updated_since');
  const sinceMs = since === null ? undefined : Date.parse(since);
  if (sinceMs !== undefined && Number.isNaN(sinceMs))
    return failure(400, 'updated_since must be an RFC 3339 date-time');
  const cursor = query.get('cursor');
  const after = cursor === null || cursor === '' ? undefined : nameOfCursor(cursor);
  if (cursor !== null && cursor !== '' && after === undefined) return failure(400, 'invalid cursor');
  const search = query.get('search')?.toLowerCase();
  const version = query.get('version');
  const matching = records.filter((record) => {
    const { server } = record;
    if (after !== undefined && server.name <= after) return false;
    if (search && !server.name.toLowerCase().includes(search)) return false;
    if (version !== null && version !== 'latest' && version !== server.version) return false;
    if (sinceMs !== undefined) {
      const official = record._meta['io.modelcontextprotocol.registry/official'] as { updatedAt: string };
      if (Date.parse(official.updatedAt) <= sinceMs) return false;
    }
    return true;
  });
  const page = matching.slice(0, limit);
  const last = page.at(-1);
  const more = matching.length > limit && last !== undefined;
  return answer({
    servers: page,
    metadata: { count: page.length, ...(more ? { nextCursor: cursorAfter(last.server.name) } : {}) },
  });
}
