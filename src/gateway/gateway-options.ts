import type { Implementation } from '@modelcontextprotocol/server';
import type { ClusterOptions } from '../cluster/cluster-options.js';
import type { GatewayMode, GatewayProfileConfig, McpToolsConfig } from '../config/config-types.js';
import type { GatewayOAuthConfig } from '../config/gateway-auth-types.js';
import type { GatewayLimitsConfig } from '../config/gateway-limits-types.js';
import type { ToolFilter } from '../config/tool-filter.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { McpToolHub } from '../mcp/hub-types.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import type { ToolContext } from '../tool/tool.js';
import type { SessionEventStores } from './sessions/session-event-stores.js';
import type { MetricsAccess } from './status/metrics-endpoint.js';

/** The default cap on request bodies: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of {@link createGateway}: the MCP hub it serves (`hub`) and its settings. */
export type GatewayOptions = GatewaySettings & GatewayHubOption;

/** The MCP hub the gateway serves, named `hub` (`provider`, its earlier name, is deprecated). */
export type GatewayHubOption =
  | {
      /** The MCP hub: resources, prompts, status and change events of the upstream servers. */
      hub: McpToolHub;
      provider?: undefined;
    }
  | {
      /** @deprecated Renamed `hub` (a provider names an LLM adapter); removed in the next release. */
      provider: McpToolHub;
      hub?: undefined;
    };

/**
 * The hub `options` name: `hub`, else the deprecated `provider`. A JavaScript caller that gives
 * neither is told which option is missing.
 */
export function hubOf(options: GatewayHubOption): McpToolHub {
  const hub = options.hub ?? options.provider;
  if (hub === undefined)
    throw new McpToolsError(
      'INVALID_ARGUMENTS',
      'createGateway needs `hub`: the MCP hub loadMcpServers returned',
    );
  return hub;
}

/** Everything {@link GatewayOptions} holds besides the hub. */
export interface GatewaySettings {
  /** Every native, plugin and MCP tool the gateway may serve. */
  registry: ToolRegistry;
  /** What `/mcp` serves. Default: `config.gateway.mode`, else `full`. */
  mode?: GatewayMode;
  /** Tools served beside the router tools in `hybrid` mode (globs). */
  pin?: string[];
  /** Allow/deny globs over the tools `/mcp` serves. */
  tools?: ToolFilter;
  /** Allow/deny globs over the servers `/mcp` serves. */
  servers?: ToolFilter;
  /** Named profiles served at `/mcp/<name>`. Default: `config.gateway.profiles`. */
  profiles?: Record<string, GatewayProfileConfig>;
  /** The loaded configuration: router defaults (`router`, `namespace`) and the `gateway` section. */
  config?: McpToolsConfig;
  /**
   * A bearer token every HTTP request must present (`Authorization: Bearer <token>`). Required
   * to listen on anything but a loopback address. Default `MCPTOOLS_TOKEN` for the CLI.
   */
  token?: string;
  /**
   * The token that marks a client as the owner (it sees `ownerOnly` tools); also accepted as
   * the access token. Default: `token`, so that a single-user gateway's one token is the owner's.
   * Over stdio the client is the owner: it started the process.
   */
  ownerToken?: string;
  /**
   * The gateway as an OAuth 2.1 resource server (docs/identity.md). Default `config.gateway.auth`.
   */
  auth?: GatewayOAuthConfig;
  /** Host names accepted in `Host` and `Origin` besides the bound address and loopback names. */
  allowedHosts?: string[];
  /** Request bodies above this many bytes get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * The most 2025-era HTTP sessions kept at once. Beyond it, opening one ends the session
   * used least recently that has no call in flight (its client gets 404 and opens a new one,
   * as the protocol says). Default 1000 (a session holds about 20–40 KB). Wins over
   * `limits.sessions`.
   */
  maxSessions?: number;
  /**
   * Global caps and per-principal quotas: sessions, listen streams, event bytes, idle and
   * park times (see {@link GatewayLimitsConfig}). Each wins over `config.gateway.limits`'s.
   */
  limits?: GatewayLimitsConfig;
  /**
   * Where 2025-era HTTP sessions keep their response streams' events, so that a client that
   * lost a stream resumes it with `Last-Event-ID` (see docs/gateway-transports.md). Default: in
   * memory, bounded per session (`MemoryEventStores`); `false` keeps none (streams cannot be
   * resumed, and a call is cancelled the moment its connection drops).
   */
  eventStore?: SessionEventStores | false;
  /**
   * How long a call whose resumable response stream dropped keeps running while the client may
   * resume it, in ms; then it is cancelled. Default 15 000.
   */
  resumeGraceMs?: number;
  /** How the gateway introduces itself. Default `{ name: 'mcptools', version }`. */
  serverInfo?: Implementation;
  /** Context handed to registry factories. */
  context?: ToolContext;
  /**
   * Settles when the first connect round of the upstreams is over (`serve` starts serving
   * before it): until then `initialize`, `ping` and `server/discover` are answered at once, a
   * list over HTTP waits up to `listWaitMs`, and every other request waits for it, so a call of
   * a tool whose server is still connecting reaches it.
   * Default: nothing waits (the servers were connected before the gateway was made).
   */
  ready?: Promise<unknown>;
  /**
   * How long an HTTP list (`tools/list`, `resources/list`, `resources/templates/list`,
   * `prompts/list`) waits for the first connect round (`ready`) before it answers with the
   * servers connected so far, in ms; the others' entries follow as `list_changed`. Default 5000.
   * `/readyz` fails until the round is over.
   */
  listWaitMs?: number;
  /**
   * How long a 2026-07-28 call that returned `input_required` waits for the client's retry
   * before its upstream call is cancelled, in ms. Default 300 000.
   */
  inputTimeoutMs?: number;
  /**
   * The key that seals the 2026-07-28 `requestState` (AES-256-GCM, at least 32 bytes): give
   * every replica behind one load balancer the same key, and a retry continues on any of them.
   * Default: a random key per process (a state opens only in the process that sealed it).
   */
  requestStateKey?: Uint8Array;
  /** Names this process among replicas sharing `requestStateKey`. Default: a random id. */
  replicaId?: string;
  /**
   * Cluster mode: this gateway is one of several replicas sharing state in Redis (see
   * `docs/cluster.md`). Off by default; `listen()` rejects when Redis cannot be reached.
   */
  cluster?: ClusterOptions;
  /**
   * Cluster mode: another replica reloaded its configuration (`gateway.announceReload()` there);
   * `serve` reloads its own file then (cluster/reload-relay.ts).
   */
  onPeerReload?: (replica: string) => void;
  /** Where operational lines go (never a secret). Default: nowhere. The CLI writes them to stderr. */
  log?: (line: string) => void;
  /**
   * Serves `GET /metrics` with this text, in Prometheus text format, to owners and the
   * `scrapeToken` (`metricsAccess`): `serve --metrics` passes its OpenTelemetry SDK's Prometheus
   * reader (docs/telemetry.md).
   */
  metrics?: () => Promise<string>;
  /** Who reads `/metrics` besides the scrape token: `owners` (default) or every caller (`callers`). */
  metricsAccess?: MetricsAccess;
  /** A token (16+ characters) that opens `GET /metrics` and nothing else: the scraper's. */
  scrapeToken?: string;
  /** Lines shown at the top of the status page (`serve`: a configuration reload that was refused). */
  notices?: () => string[];
}
