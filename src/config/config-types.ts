import type {
  AccessRuleConfig,
  CallerSelector,
  GatewayOAuthConfig,
  GatewayTokenConfig,
} from './gateway-auth-types.js';
import type { GatewayLimitsConfig } from './gateway-limits-types.js';
import type { PinsConfig } from './pins-config.js';
import type { PoliciesConfig, ToolOverrideConfig } from './policies-schema.js';
import type { SandboxSetting } from './sandbox-settings.js';
import type { ToolFilter } from './tool-filter.js';

/** Settings every server entry may carry, whatever its transport. */
export interface ServerCommon {
  /** `false` keeps the server configured but never connected. Default `true`. */
  enabled?: boolean;
  /** Connect timeout in ms. Default 30 000. */
  connectTimeoutMs?: number;
  /** Per-call timeout in ms. Default 60 000. */
  callTimeoutMs?: number;
  /** Globs over the server's original tool names. */
  tools?: ToolFilter;
  /** Replaces the server name as the namespace prefix of its tools. */
  prefix?: string;
  /** How the protocol era is chosen; default: the configuration's `protocol`, else `2025-first`. */
  protocol?: ProtocolMode;
}

/**
 * How a connect chooses the protocol era (`2025`: the revisions 2024-11-05 to 2025-06-18, with
 * `initialize` and sessions; `2026-07-28`: stateless). `2025-first` (the default): the 2025
 * handshake, moving to 2026-07-28 only when the server refuses it. `2026-07-28-first`: ask
 * `server/discover` first (on the server's one process), falling back to the 2025 handshake.
 * `2025` / `2026-07-28`: that era only. The configuration still reads the earlier names
 * `initialize`, `auto`, `legacy` and `modern`, with a warning.
 */
export type ProtocolMode = '2025-first' | '2026-07-28-first' | '2025' | '2026-07-28';

/**
 * A stdio server's lock as the reader attaches it (`StdioServerConfig.locked`): the lock file,
 * the entry's name in it, and the locked package (its shape is the catalog's `LockedPackage`).
 */
export interface LockedStart {
  file: string;
  entry: string;
  package: { registryType: string } & Record<string, unknown>;
}

/** A server spawned as a child process, speaking JSON-RPC over stdin/stdout. */
export interface StdioServerConfig extends ServerCommon {
  type: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Run in a box (docs/sandbox.md): `true`, `false`, or its grants. Unset: the default that applies. */
  sandbox?: SandboxSetting;
  /** `true` keeps the server out of a default box (`sandbox` at the top level or `gateway.sandbox`). */
  trusted?: boolean;
  /**
   * Set by the reader from `mcptools-lock.json` beside the file (never written by hand): the
   * server starts only the locked package (docs/registry.md).
   */
  locked?: LockedStart;
}

/**
 * OAuth 2.1 for a remote server (`auth: { type: "oauth" }`). Every field is optional: by default
 * the client registers itself (client ID metadata document or dynamic registration) and runs the
 * authorization code flow with PKCE through a loopback redirect. `clientSecret` is a secret.
 */
export interface OAuthConfig {
  type: 'oauth';
  /** A client ID registered with the authorization server beforehand. */
  clientId?: string;
  /** Its secret (confidential clients, and the client-credentials grant). */
  clientSecret?: string;
  /** Scopes to request; default: what the server's metadata advertises. */
  scopes?: string[];
  /** `authorization_code` (default; a person signs in) or `client_credentials` (machine to machine). */
  grant?: 'authorization_code' | 'client_credentials';
  /** An https URL of this client's metadata document, used as its client ID where the server supports it. */
  clientMetadataUrl?: string;
  /** A fixed port for the loopback redirect (`http://127.0.0.1:PORT/callback`); default: a free one. */
  redirectPort?: number;
  /**
   * Through the gateway, each caller (principal) signs in for themselves and calls with their own
   * token (the redirect comes back to the gateway's `/oauth/callback`). The library, the CLI and
   * stdio callers keep the one shared sign-in. Not with `grant: "client_credentials"`.
   */
  perUser?: boolean;
}

/**
 * RFC 8693 token exchange (`auth: { type: "tokenExchange" }`), for the gateway: each call is
 * made with a token the authorization server issued for this upstream (`audience`) in exchange
 * for the caller's own front-door token, which is never sent upstream. `clientSecret` is a secret.
 */
export interface TokenExchangeConfig {
  type: 'tokenExchange';
  /** The authorization server's token endpoint; or give `issuer` to read it from its metadata. */
  tokenEndpoint?: string;
  /** The authorization server (RFC 8414 / OpenID discovery finds its token endpoint). */
  issuer?: string;
  /** The gateway's client at that authorization server. */
  clientId: string;
  clientSecret: string;
  /** The upstream the exchanged token is for (`audience`; also sent as the RFC 8707 `resource`). */
  audience: string;
  /** Scopes to ask for. */
  scopes?: string[];
}

/** Authentication for HTTP servers; values are secrets and never logged. */
export type HttpAuth =
  | { type: 'bearer'; token: string }
  | { type: 'api-key'; key: string; header?: string }
  | OAuthConfig
  | TokenExchangeConfig;

/** A server reached over HTTP. `http` tries Streamable HTTP and falls back to SSE on 404/405. */
export interface HttpServerConfig extends ServerCommon {
  type: 'streamable-http' | 'sse' | 'http';
  url: string;
  headers?: Record<string, string>;
  auth?: HttpAuth;
}

/** One normalized server entry. */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

/**
 * An OpenClaw plugin to load beside the servers: an installed package name, a path (relative
 * paths resolve against the config file), or the long form with the plugin's own config.
 */
export type PluginEntryConfig =
  | string
  | { spec: string; config?: Record<string, unknown>; enabled?: boolean; allow?: string[]; deny?: string[] };

/**
 * An OpenAI-compatible `/v1/embeddings` endpoint for `tool_index` (`router.semanticSearch`).
 * `url`, `apiKey` and header values take `${VAR}`.
 */
export interface SemanticSearchConfig {
  url: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Share of the similarity in the fused score, 0–1. Default 0.3. */
  weight?: number;
  dimensions?: number;
  queryPrefix?: string;
  documentPrefix?: string;
  batchSize?: number;
  timeoutMs?: number;
  /** How long a search waits for embeddings before answering lexically. Default 5000. */
  waitMs?: number;
  /** A directory where tool vectors are kept between runs (one file per endpoint and model). */
  cacheDir?: string;
}

/** `router.codeMode`: the limits of each script (docs/code-mode.md); `enabled: false` turns it off. */
export interface CodeModeConfig {
  enabled?: boolean;
  memoryBytes?: number;
  stackBytes?: number;
  timeoutMs?: number;
  maxCalls?: number;
  maxConcurrentCalls?: number;
  maxOutputBytes?: number;
}

/** What a gateway endpoint serves: `full` (every tool), `router` (the router tools), `hybrid` (pinned tools + router tools). */
export type GatewayMode = 'full' | 'router' | 'hybrid';

/** One gateway endpoint's view: a mode, pinned globs (hybrid), and allow/deny globs over tools and servers. */
export interface GatewayProfileConfig {
  mode?: GatewayMode;
  /** Only callers who match may use this profile (others get 404). */
  who?: CallerSelector;
  /** Tools served beside the router tools in `hybrid` mode (globs over exposed names or `server/tool`). */
  pin?: string[];
  tools?: ToolFilter;
  servers?: ToolFilter;
  /**
   * Longest tool name served, so a host's own prefix still fits its limit. Default 48
   * (Claude Code and Codex send `mcp__<entry>__<name>`, at most 64 characters).
   */
  maxNameLength?: number;
  /**
   * Serve `run_script` and `describe_tools` (code mode). Default: on in `router` and `hybrid`
   * modes (as `router.codeMode` says), off in `full` mode.
   */
  codeMode?: boolean;
  /**
   * Tool overrides for this profile's clients only, per server and original tool name (the
   * shape of `policies.overrides`), applied over what the registry holds (docs/tool-policies.md).
   */
  overrides?: Record<string, Record<string, ToolOverrideConfig>>;
  /**
   * The one server this profile serves as its own endpoint (`gateway.serverEndpoints` makes
   * these profiles; it is not a configuration key).
   */
  endpointOf?: string;
}

/** `gateway` in `mcptools.json`: the default endpoint's profile plus named profiles at `/mcp/<name>`. */
export interface GatewayConfig extends GatewayProfileConfig {
  profiles?: Record<string, GatewayProfileConfig>;
  /**
   * Serve each configured server alone at `/mcp/<server>` too (a profile of its own, `full`
   * mode, under the default profile's `who`, tool filter and overrides), and list it as a record
   * of the gateway's registry, so a team's hosts can add one server through the gateway.
   */
  serverEndpoints?: boolean;
  /** The gateway as an OAuth 2.1 resource server (docs/identity.md). */
  auth?: GatewayOAuthConfig;
  /** Named static bearer tokens, each mapped to a principal (and a profile). */
  tokens?: Record<string, GatewayTokenConfig>;
  /** Who sees which tools and servers. */
  access?: AccessRuleConfig[];
  /** Global caps and per-principal quotas of `serve --http`. */
  limits?: GatewayLimitsConfig;
  /** `mcptools serve`'s default box for stdio servers without `sandbox` or `trusted` (over the top-level `sandbox`). */
  sandbox?: SandboxSetting;
  /**
   * How long a list over HTTP waits for servers still connecting at start, in ms (0: answer
   * with what is connected at once); the others' entries follow as `list_changed`. Default 5000;
   * `serve --list-wait` wins over it.
   */
  listWaitMs?: number;
}

/**
 * `telemetry` in `mcptools.json`: what `mcptools serve` exports. The standard `OTEL_*`
 * variables win over these (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`, …).
 */
export interface TelemetryConfig {
  /** `service.name` of every span and metric. Default `mcptools`. */
  serviceName?: string;
  /** The OTLP/HTTP endpoint (`/v1/traces` and `/v1/metrics` are appended). */
  endpoint?: string;
  /** Export traces over OTLP (default: true when an endpoint is set). */
  traces?: boolean;
  /** Serve `GET /metrics` in Prometheus text format (as `serve --metrics`). */
  metrics?: boolean;
  /** Who reads `/metrics` besides `MCPTOOLS_SCRAPE_TOKEN`: `owners` (default) or every caller. */
  metricsAccess?: 'owners' | 'callers';
  /** The fraction of traces sampled (parent-based). Default 1. */
  sampleRatio?: number;
}

/** The normalized configuration every loader produces. */
export interface McpToolsConfig {
  servers: Record<string, ServerConfig>;
  namespace?: { separator?: string; maxLength?: number };
  /** Registry-wide globs over exposed names, native tools included. */
  tools?: ToolFilter;
  router?: {
    listMaxResources?: number;
    readMaxBytes?: number;
    toolIndexMaxBytes?: number;
    perServerResourceTools?: boolean;
    /**
     * `serve` offers the owner `find_server` and `add_server` (servers from the MCP Registry, each
     * call approved by a person, each added server's tools held until an operator approves them).
     * Needs pins. Default `false`.
     */
    catalogTools?: boolean;
    /** `tool_index` search fused with an OpenAI-compatible embeddings endpoint. */
    semanticSearch?: SemanticSearchConfig;
    /** Code mode (`run_script`, `describe_tools`): `false` turns it off, an object sets its limits. */
    codeMode?: boolean | CodeModeConfig;
  };
  /** OpenClaw plugins whose tools join the servers' tools (`mcptools.json` only). */
  plugins?: PluginEntryConfig[];
  /** Cap on the text of one tool result, in characters. Default 100 000. */
  maxResultChars?: number;
  /** Cap on one HTTP message from a server (JSON body or SSE event), in bytes. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Cap on the arguments of one tool call, in bytes of JSON. Default 10 MiB. */
  maxArgumentBytes?: number;
  /** What `mcptools serve` exposes (`mcptools.json` only). */
  gateway?: GatewayConfig;
  /** OpenTelemetry of `mcptools serve` (`mcptools.json` only; see {@link TelemetryConfig}). */
  telemetry?: TelemetryConfig;
  /** Tool-call policies: deny and approval rules, tool overrides, rate limits, the audit log (`mcptools.json` only). */
  policies?: PoliciesConfig;
  /** Definitions pinned and changed ones quarantined (`mcptools.json` only; docs/pins-and-guards.md). */
  pins?: PinsConfig;
  /** The `protocol` of every server that sets none. Default `2025-first`. */
  protocol?: ProtocolMode;
  /** Filesystem roots offered to servers (2025-era `roots/list`). */
  workspaceDir?: string;
  /** The default box of every stdio server without its own `sandbox` and not `trusted` (docs/sandbox.md). */
  sandbox?: SandboxSetting;
  /**
   * The MCP registries `mcptools registry` and `mcptools add` read, in order (docs/registry.md);
   * default: the official one. `url` and header values take `${VAR}`.
   */
  registries?: { url: string; headers?: Record<string, string> }[];
  /** Where this configuration was read from, for error messages. */
  source?: string;
  /** Which file format it was read from. */
  format?: ConfigFormat;
}

/** The file formats {@link McpToolsConfig} can be read from. */
export type ConfigFormat =
  | 'mcptools'
  | 'claude-desktop'
  | 'claude-code'
  | 'cursor'
  | 'vscode'
  | 'windsurf'
  | 'codex';
