import { McpToolsError } from '../../errors/mcp-tools-error.js';
import type { McpToolHub } from '../../mcp/hub-types.js';
import type { ResourceIndex } from './resource-index.js';
import { unwrapResourceUri, wrapResourceUri } from './resource-uri.js';

/** The upstream server and its own URI behind a URI a downstream client named. */
export interface ResourceTarget {
  server: string;
  uri: string;
}

/** What routing needs: the index, the hub, and the servers the asker may see. */
export interface ResourceScope {
  index: ResourceIndex;
  hub: McpToolHub;
  /** The servers visible to the asker (a profile's, a caller's): nothing else is routed to. */
  servers: readonly string[];
}

/**
 * The error for a URI more than one server offers: it names every server and the qualified URI
 * that reads from each (`INVALID_URI`, so a gateway answers -32602 and a router tool
 * `InvalidURI`, recoverable: the caller picks one).
 */
export function sharedUriError(uri: string, servers: readonly string[]): McpToolsError {
  const qualified = servers.map((server) => ({ server, uri: wrapResourceUri(server, uri) }));
  const listed = qualified.map((entry) => `"${entry.server}" (${entry.uri})`).join(', ');
  return new McpToolsError(
    'INVALID_URI',
    `Resource URI ${uri} is offered by ${servers.length} servers: ${listed}; name one of those URIs`,
    { data: { uri, servers: qualified } },
  );
}

function notFound(uri: string): McpToolsError {
  return new McpToolsError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { data: { uri } });
}

/**
 * Routes a resource URI (or a URI to subscribe to) to the server that offers it: a qualified
 * `mcptools://<server>/<uri>` goes to that server; a URI one visible server listed, handed out
 * or matches with a template goes there. A URI two servers offer is refused with
 * {@link sharedUriError}; one nobody offers goes to the only visible server when there is one
 * (its own answer passes through), else `RESOURCE_NOT_FOUND`.
 */
export async function locateResource(
  scope: ResourceScope,
  uri: string,
  signal?: AbortSignal,
): Promise<ResourceTarget> {
  const { index, servers } = scope;
  const qualified = unwrapResourceUri(uri);
  if (qualified !== undefined && servers.includes(qualified.server)) return qualified;
  await index.load(servers, signal);
  const owners = index.owners(uri, servers);
  if (owners.length === 1) return { server: owners[0]!, uri };
  if (owners.length > 1) throw sharedUriError(uri, owners);
  // A qualified URI names its server: never another.
  if (qualified === undefined && servers.length === 1) return { server: servers[0]!, uri };
  throw notFound(uri);
}

/**
 * Routes the URI template of a `completion/complete` reference: the server that listed that
 * template, or the one a qualified template names; shared ones are refused like shared URIs.
 */
export async function locateTemplate(
  scope: ResourceScope,
  template: string,
  signal?: AbortSignal,
): Promise<ResourceTarget> {
  const { index, servers } = scope;
  await index.load(servers, signal);
  const listing = index.listingTemplate(template, servers);
  if (listing.length === 1) return { server: listing[0]!, uri: template };
  if (listing.length > 1) throw sharedUriError(template, listing);
  const qualified = unwrapResourceUri(template);
  if (qualified !== undefined && servers.includes(qualified.server)) return qualified;
  if (qualified === undefined && servers.length === 1) return { server: servers[0]!, uri: template };
  throw notFound(template);
}

/**
 * How the gateway names `server`'s `uri` to a client who sees `servers`: the URI itself, or
 * `mcptools://<server>/<uri>` when another visible server offers the same URI. Synchronous:
 * it reads what the index holds (call {@link ResourceIndex.load} first).
 */
export function presentUri(scope: ResourceScope, server: string, uri: string): string {
  return scope.index.owners(uri, scope.servers).length > 1 ? wrapResourceUri(server, uri) : uri;
}
