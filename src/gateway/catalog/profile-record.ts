import type { McpToolHub } from '../../mcp/hub-types.js';
import type { RequestPrincipal } from '../auth/http-guard.js';
import type { GatewayProfile } from '../profiles/gateway-profile.js';

/** The `server.json` schema the records follow (the version in `spec/registry/`). */
export const SERVER_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json';

/** The registry's own metadata key in a `ServerResponse`'s `_meta`. */
const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';
/** Where a publisher says more about its record (`server._meta`). */
const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided';

/** The registry API's limits on a record's text fields. */
const MAX_DESCRIPTION = 100;

/** One record as the registry API serves it: `ServerResponse` (a `server.json` and the registry's metadata). */
export interface CatalogRecord {
  server: {
    $schema: string;
    name: string;
    title: string;
    description: string;
    version: string;
    remotes: CatalogRemote[];
    _meta: Record<string, unknown>;
  };
  _meta: Record<string, unknown>;
}

/** A remote of a record: always an endpoint of this gateway. */
export interface CatalogRemote {
  type: 'streamable-http';
  url: string;
  headers?: Record<string, unknown>[];
}

/** What the records of one caller are made from. */
export interface CatalogView {
  /** The origin the caller reaches this gateway at (the public origin when one is configured). */
  origin: string;
  /** The caller, as the front door let it in. */
  caller: RequestPrincipal;
  /** The gateway's own version (every record's version). */
  version: string;
  /** When the gateway started, and when its profiles last changed (a reload). */
  publishedAt: Date;
  updatedAt: Date;
  /** Whether a request must carry a static bearer token, or may (OAuth callers sign in instead). */
  bearer: 'required' | 'optional' | 'none';
  hub: McpToolHub;
}

/**
 * The namespace of this gateway's record names, from the host its callers reach it at: a DNS
 * name reversed (`gw.example.com` → `com.example.gw`), an IPv4 address as it is, an IPv6 address
 * with `-` for `:` (the registry's names allow letters, digits, `.` and `-` before the slash).
 */
export function catalogNamespace(origin: string): string {
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  if (host.includes(':')) return host.replaceAll(':', '-');
  if (/^\d+(?:\.\d+){3}$/.test(host)) return host;
  return host.split('.').reverse().join('.');
}

/**
 * A record's name for a profile: `<namespace>/mcptools` for `/mcp`, `<namespace>/mcptools-<profile>`
 * else (a server's own endpoint is a profile named as the server).
 */
export function recordName(namespace: string, profile: string): string {
  return `${namespace}/${profile === '' ? 'mcptools' : `mcptools-${profile}`}`;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The record of `profile` as `view.caller` sees it: its endpoint on this gateway as the one
 * remote, the tools and servers it shows that caller counted and named. Never an upstream's
 * command, URL, headers or environment: the record describes the gateway's endpoint only.
 */
export async function profileRecord(profile: GatewayProfile, view: CatalogView): Promise<CatalogRecord> {
  const viewer = { owner: view.caller.owner, caller: view.caller };
  const tools = await profile.tools(viewer);
  const servers = view.hub
    .status()
    .map((status) => status.name)
    .filter((server) => profile.serves(server, viewer))
    .sort();
  const path = profile.name === '' ? '/mcp' : `/mcp/${profile.name}`;
  const remote: CatalogRemote = { type: 'streamable-http', url: new URL(path, view.origin).href };
  if (view.bearer !== 'none')
    remote.headers = [
      {
        name: 'Authorization',
        description: 'Your token for this mcptools gateway',
        isRequired: view.bearer === 'required',
        isSecret: true,
        value: 'Bearer {token}',
        variables: {
          token: { description: 'Your mcptools gateway token', isRequired: true, isSecret: true },
        },
      },
    ];
  const where =
    profile.name === ''
      ? 'mcptools gateway'
      : profile.endpointOf !== undefined
        ? `server ${profile.endpointOf} through the mcptools gateway`
        : `mcptools gateway, profile ${profile.name}`;
  const updatedAt = view.updatedAt.toISOString();
  return {
    server: {
      $schema: SERVER_SCHEMA_URL,
      name: recordName(catalogNamespace(view.origin), profile.name),
      title: clip(profile.name === '' ? 'mcptools' : `mcptools ${profile.name}`, MAX_DESCRIPTION),
      description: clip(
        `${where}: ${tools.length} tool${tools.length === 1 ? '' : 's'} from ${servers.length} server${servers.length === 1 ? '' : 's'}`,
        MAX_DESCRIPTION,
      ),
      version: view.version,
      remotes: [remote],
      _meta: {
        [PUBLISHER_META]: {
          tool: 'mcptools',
          profile: profile.name,
          mode: profile.mode,
          servers,
          ...(profile.endpointOf !== undefined ? { server: profile.endpointOf } : {}),
        },
      },
    },
    _meta: {
      [OFFICIAL_META]: {
        status: 'active',
        publishedAt: view.publishedAt.toISOString(),
        updatedAt,
        isLatest: true,
      },
    },
  };
}
